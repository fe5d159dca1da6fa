package llm

import (
	"context"
	"errors"
	"net/http"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/vigil-soc/vigil/triage"
)

const (
	testKey   = "sk-test-0123456789"
	testModel = "test-model"
)

var phishing = triage.Incident{
	IncidentType: "phishing", Severity: "high", Source: "email-gateway",
	RawData: map[string]any{
		"sender":  "security@micros0ft-support.com",
		"subject": "Urgent: verify your account",
		"urls":    []any{"https://micros0ft-support.com/login/verify?user=jane"},
	},
}

const goodAnswer = `{"classification": "malicious", "confidence": 0.934, "category": "Credential Phishing",
	"reasoning": "Look-alike sender domain\nwith a credential link.", "recommended_actions": ["create_ticket", "quarantine_email", "block_sender", "quarantine_email"]}`

func staticConfig(cfg Config, enabled bool) func(context.Context) (Config, bool, error) {
	return func(context.Context) (Config, bool, error) { return cfg, enabled, nil }
}

func testConfig(f *fakeProvider) Config {
	return Config{Provider: "openai-compatible", BaseURL: f.baseURL(), Model: testModel, APIKey: testKey, Timeout: 5 * time.Second}
}

func builtin(t *testing.T, inc triage.Incident) triage.Analysis {
	t.Helper()
	a, err := triage.RuleAnalyzer{}.Analyze(context.Background(), inc, triage.ExtractIndicators(inc.RawData))
	if err != nil {
		t.Fatal(err)
	}
	return a
}

func counter(t *testing.T, g prometheus.Gatherer, name string, labels map[string]string) float64 {
	t.Helper()
	mfs, err := g.Gather()
	if err != nil {
		t.Fatal(err)
	}
	for _, mf := range mfs {
		if mf.GetName() != name {
			continue
		}
	metrics:
		for _, m := range mf.GetMetric() {
			for _, lp := range m.GetLabel() {
				if labels[lp.GetName()] != lp.GetValue() {
					continue metrics
				}
			}
			return m.GetCounter().GetValue()
		}
	}
	return 0
}

func TestAnalyzerUsesValidAnswer(t *testing.T) {
	for _, tc := range []struct {
		name, content string
		baseSuffix    string
	}{
		{"plain JSON", goodAnswer, ""},
		{"fenced JSON", "```json\n" + goodAnswer + "\n```", ""},
		{"bare fence, base URL with trailing slash", "```\n" + goodAnswer + "\n```", "/"},
		{"one-line fence", "```json " + strings.ReplaceAll(goodAnswer, "\n\t", " ") + "```", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFakeProvider(t, testKey, testModel)
			f.setContent(tc.content)
			reg := prometheus.NewRegistry()
			cfg := testConfig(f)
			cfg.BaseURL += tc.baseSuffix
			a := &Analyzer{Config: staticConfig(cfg, true), Metrics: NewMetrics(reg)}
			got, err := a.Analyze(context.Background(), phishing, triage.ExtractIndicators(phishing.RawData))
			if err != nil {
				t.Fatal(err)
			}
			want := triage.Analysis{
				Verdict: triage.Verdict{
					Classification: "malicious", Confidence: 0.93, Category: "credential_phishing",
					Reasoning: "Look-alike sender domain with a credential link.",
				},
				RecommendedActions: []string{"quarantine_email", "block_sender", "create_ticket"},
				Analyzer:           "llm:openai-compatible",
				Model:              testModel,
			}
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("analysis:\n%+v\nwant\n%+v", got, want)
			}
			if reqs, rejected := f.seen(); len(reqs) != 1 || len(rejected) != 0 {
				t.Fatalf("requests %d, rejected %v", len(reqs), rejected)
			}
			if n := counter(t, reg, "llm_requests_total", map[string]string{"provider": "openai-compatible", "model": testModel}); n != 1 {
				t.Errorf("llm_requests_total = %v", n)
			}
			if n := counter(t, reg, "llm_tokens_used_total", map[string]string{"provider": "openai-compatible", "type": "prompt"}); n != fakePromptTokens {
				t.Errorf("prompt tokens = %v", n)
			}
			if n := counter(t, reg, "llm_tokens_used_total", map[string]string{"provider": "openai-compatible", "type": "completion"}); n != fakeCompletionTokens {
				t.Errorf("completion tokens = %v", n)
			}
		})
	}
}

func TestAnalyzerFallsBack(t *testing.T) {
	answer := func(fields string) string {
		return `{"classification": "malicious", "confidence": 0.9, "category": "phishing", "reasoning": "r", "recommended_actions": [], ` + fields + `}`
	}
	tests := []struct {
		name    string
		content string                      // answer content, when reply is nil
		reply   func(w http.ResponseWriter) // raw HTTP reply
		key     string                      // key the client sends; empty: the right one
		reason  string                      // expected FallbackReason
		kind    error
	}{
		{name: "content is not JSON", content: "The email is clearly malicious.", reason: "llm answer malformed: content is not a JSON object", kind: ErrMalformed},
		{name: "truncated JSON", content: `{"classification": "malicious", "confid`, reason: "llm answer malformed: content is not a JSON object", kind: ErrMalformed},
		{name: "invalid classification", content: answer(`"classification": "evil"`), reason: "llm answer malformed: classification must be one of malicious, suspicious, benign, unknown", kind: ErrMalformed},
		{name: "confidence out of range", content: answer(`"confidence": 1.5`), reason: "llm answer malformed: confidence must be between 0 and 1", kind: ErrMalformed},
		{name: "confidence as string", content: answer(`"confidence": "0.9"`), reason: "llm answer malformed: confidence must be a number", kind: ErrMalformed},
		{name: "confidence null", content: answer(`"confidence": null`), reason: "llm answer malformed: confidence must be a number", kind: ErrMalformed},
		{name: "unknown action", content: answer(`"recommended_actions": ["quarantine_email", "wipe_host"]`), reason: `llm answer malformed: unknown action "wipe_host"`, kind: ErrMalformed},
		{name: "missing actions", content: `{"classification": "benign", "confidence": 0.9, "category": "x", "reasoning": "r"}`, reason: "llm answer malformed: recommended_actions is missing", kind: ErrMalformed},
		{name: "empty category", content: answer(`"category": " - "`), reason: "llm answer malformed: category must not be empty", kind: ErrMalformed},
		{name: "long category", content: answer(`"category": "` + strings.Repeat("a", 101) + `"`), reason: "llm answer malformed: category must be at most 100 characters", kind: ErrMalformed},
		{name: "empty reasoning", content: answer(`"reasoning": "  "`), reason: "llm answer malformed: reasoning must not be empty", kind: ErrMalformed},
		{name: "long reasoning", content: answer(`"reasoning": "` + strings.Repeat("é", 4001) + `"`), reason: "llm answer malformed: reasoning must be at most 4000 characters", kind: ErrMalformed},
		{
			name: "no choices", kind: ErrMalformed, reason: "llm answer malformed: no choices with message content",
			reply: func(w http.ResponseWriter) {
				w.Header().Set("Content-Type", "application/json")
				_, _ = w.Write([]byte(`{"id": "x", "choices": [], "usage": {"prompt_tokens": 10, "completion_tokens": 0}}`))
			},
		},
		{
			name: "not chat-completions JSON", kind: ErrMalformed, reason: "llm answer malformed: response is not chat-completions JSON",
			reply: func(w http.ResponseWriter) { _, _ = w.Write([]byte("<html>gateway</html>")) },
		},
		{
			name: "response over 1 MiB", kind: ErrMalformed, reason: "llm answer malformed: response exceeds 1048576 bytes",
			reply: func(w http.ResponseWriter) { writeCompletion(w, testModel, strings.Repeat("x", 1<<20)) },
		},
		{
			name: "http 500", kind: ErrStatus, reason: "llm http 500",
			reply: func(w http.ResponseWriter) {
				http.Error(w, `{"error": {"message": "overloaded"}}`, http.StatusInternalServerError)
			},
		},
		{name: "wrong api key", key: "sk-wrong", content: goodAnswer, kind: ErrStatus, reason: "llm http 401"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := newFakeProvider(t, testKey, testModel)
			f.setContent(tc.content)
			if tc.reply != nil {
				f.setReply(tc.reply)
			}
			cfg := testConfig(f)
			if tc.key != "" {
				cfg.APIKey = tc.key
			}
			reg := prometheus.NewRegistry()
			a := &Analyzer{Config: staticConfig(cfg, true), Metrics: NewMetrics(reg)}
			got, err := a.Analyze(context.Background(), phishing, triage.Indicators{})
			if err != nil {
				t.Fatal(err)
			}
			want := builtin(t, phishing)
			want.FallbackReason = tc.reason
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("got\n%+v\nwant the built-in analysis with reason %q", got, tc.reason)
			}
			if n := counter(t, reg, "llm_requests_total", map[string]string{"provider": "openai-compatible", "model": testModel}); n != 1 {
				t.Errorf("llm_requests_total = %v, want 1", n)
			}
			// The client error itself carries its kind.
			_, _, cerr := NewClient(cfg, nil, nil).Analyze(context.Background(), phishing, triage.Indicators{})
			if !errors.Is(cerr, tc.kind) || cerr.Error() != tc.reason {
				t.Errorf("client error %v, want kind %v", cerr, tc.kind)
			}
		})
	}
}

func TestAnalyzerTimeout(t *testing.T) {
	f := newFakeProvider(t, testKey, testModel)
	release := make(chan struct{})
	// Registered after the server's Close, so it runs first and lets the
	// blocked handler return.
	t.Cleanup(func() { close(release) })
	arrived := make(chan struct{}, 1)
	f.setReply(func(w http.ResponseWriter) {
		select {
		case arrived <- struct{}{}:
		default:
		}
		<-release
	})
	cfg := testConfig(f)
	cfg.Timeout = 200 * time.Millisecond
	a := &Analyzer{Config: staticConfig(cfg, true)}
	start := time.Now()
	got, err := a.Analyze(context.Background(), phishing, triage.Indicators{})
	if err != nil {
		t.Fatal(err)
	}
	if got.FallbackReason != "llm unreachable" || got.Analyzer != triage.BuiltinAnalyzerName {
		t.Fatalf("got %+v", got)
	}
	if elapsed := time.Since(start); elapsed > 5*time.Second {
		t.Errorf("took %s despite a 200ms timeout", elapsed)
	}
	select {
	case <-arrived:
	default:
		t.Error("the request never reached the server")
	}

	// When the caller's own context ends, there is no fallback verdict.
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	cfg.Timeout = time.Minute
	a = &Analyzer{Config: staticConfig(cfg, true)}
	if _, err := a.Analyze(ctx, phishing, triage.Indicators{}); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("cancelled caller: err = %v", err)
	}
}

func TestAnalyzerDisabledMakesNoRequest(t *testing.T) {
	f := newFakeProvider(t, testKey, testModel)
	f.setContent(goodAnswer)
	for _, a := range []*Analyzer{
		{Config: staticConfig(testConfig(f), false)},
		{}, // no Config at all
	} {
		got, err := a.Analyze(context.Background(), phishing, triage.Indicators{})
		if err != nil {
			t.Fatal(err)
		}
		if want := builtin(t, phishing); !reflect.DeepEqual(got, want) {
			t.Errorf("disabled: got %+v, want the plain built-in analysis", got)
		}
	}
	if reqs, rejected := f.seen(); len(reqs)+len(rejected) != 0 {
		t.Errorf("disabled analyzer reached the server: %d requests, %v", len(reqs), rejected)
	}
}

func TestAnalyzerConfigAndTransportErrors(t *testing.T) {
	closed := newFakeProvider(t, "", testModel)
	closedURL := closed.baseURL()
	closed.srv.Close()
	// Credentials some gateways take in the URL must not reach the reason.
	withSecrets := strings.Replace(closedURL, "http://", "http://user:url-secret@", 1) + "?api-key=query-secret"
	tests := []struct {
		name   string
		config func(context.Context) (Config, bool, error)
		reason string
	}{
		{
			name: "config error",
			config: func(context.Context) (Config, bool, error) {
				return Config{}, false, errors.New("open llm api key: bad key")
			},
			reason: "llm configuration unavailable: open llm api key: bad key",
		},
		{name: "no model", config: staticConfig(Config{BaseURL: closedURL}, true), reason: "llm configuration invalid: model is empty"},
		{name: "relative base url", config: staticConfig(Config{BaseURL: "localhost:11434/v1", Model: "m"}, true), reason: "llm configuration invalid: base_url must be an absolute http or https URL"},
		{name: "connection refused", config: staticConfig(Config{BaseURL: withSecrets, Model: testModel}, true), reason: "llm unreachable"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			a := &Analyzer{Config: tc.config}
			got, err := a.Analyze(context.Background(), phishing, triage.Indicators{})
			if err != nil {
				t.Fatal(err)
			}
			if !strings.HasPrefix(got.FallbackReason, tc.reason) || got.Analyzer != triage.BuiltinAnalyzerName {
				t.Errorf("reason %q, want prefix %q", got.FallbackReason, tc.reason)
			}
			if strings.Contains(got.FallbackReason, "secret") {
				t.Errorf("reason leaks URL credentials: %q", got.FallbackReason)
			}
		})
	}
}

// errAnalyzer fails, like a fallback whose context ended.
type errAnalyzer struct{}

func (errAnalyzer) Analyze(context.Context, triage.Incident, triage.Indicators) (triage.Analysis, error) {
	return triage.Analysis{}, errors.New("fallback broke")
}

func TestAnalyzerFallbackError(t *testing.T) {
	a := &Analyzer{Fallback: errAnalyzer{}}
	if _, err := a.Analyze(context.Background(), phishing, triage.Indicators{}); err == nil || !strings.Contains(err.Error(), "fallback broke") {
		t.Errorf("err = %v", err)
	}
}

func TestNoAuthorizationWithoutKey(t *testing.T) {
	f := newFakeProvider(t, "", testModel) // rejects any Authorization header
	f.setContent(goodAnswer)
	cfg := testConfig(f)
	cfg.APIKey = ""
	got, err := (&Analyzer{Config: staticConfig(cfg, true)}).Analyze(context.Background(), phishing, triage.Indicators{})
	if err != nil || got.FallbackReason != "" || got.Analyzer != "llm:openai-compatible" {
		t.Fatalf("got %+v, %v", got, err)
	}
}

func TestMetricsShareRegistry(t *testing.T) {
	reg := prometheus.NewRegistry()
	m1, m2 := NewMetrics(reg), NewMetrics(reg)
	m1.request("p", "m")
	m2.request("p", "m")
	m2.usage("p", Usage{PromptTokens: 3, CompletionTokens: 4})
	if n := counter(t, reg, "llm_requests_total", map[string]string{"provider": "p", "model": "m"}); n != 2 {
		t.Errorf("shared requests counter = %v", n)
	}
	var nilMetrics *Metrics
	nilMetrics.request("p", "m") // must not panic
	nilMetrics.usage("p", Usage{PromptTokens: 1})
}

// AnalyzeInProcess answers without the model exactly when Analyze would,
// and otherwise leaves the request to the caller: no request is made
// either way.
func TestAnalyzeInProcessDecidesFromOneConfigurationRead(t *testing.T) {
	f := newFakeProvider(t, testKey, testModel)
	f.setContent(goodAnswer)
	reads := 0
	counted := func(enabled bool, err error) func(context.Context) (Config, bool, error) {
		return func(context.Context) (Config, bool, error) { reads++; return testConfig(f), enabled, err }
	}
	tests := []struct {
		name      string
		a         *Analyzer
		local     bool
		reason    string
		wantReads int
	}{
		{name: "disabled", a: &Analyzer{Config: counted(false, nil)}, local: true, wantReads: 1},
		{name: "no configuration", a: &Analyzer{}, local: true},
		{name: "configuration unreadable", a: &Analyzer{Config: counted(false, errors.New("open llm api key: bad key"))},
			local: true, reason: "llm configuration unavailable: open llm api key: bad key", wantReads: 1},
		{name: "enabled", a: &Analyzer{Config: counted(true, nil)}, local: false, wantReads: 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			reads = 0
			got, local, err := tc.a.AnalyzeInProcess(context.Background(), phishing, triage.Indicators{})
			if err != nil {
				t.Fatal(err)
			}
			if local != tc.local || reads != tc.wantReads {
				t.Fatalf("local %v after %d configuration reads, want %v after %d", local, reads, tc.local, tc.wantReads)
			}
			if !local {
				return
			}
			want := builtin(t, phishing)
			want.FallbackReason = tc.reason
			if !reflect.DeepEqual(got, want) {
				t.Errorf("got %+v, want the built-in analysis with reason %q", got, tc.reason)
			}
		})
	}
	if reqs, rejected := f.seen(); len(reqs)+len(rejected) != 0 {
		t.Errorf("in-process analysis reached the server: %d requests, %v", len(reqs), rejected)
	}
}
