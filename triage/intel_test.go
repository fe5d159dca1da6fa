package triage

import (
	"context"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"
)

func rep(typ, value, verdict string, score int) Reputation {
	return Reputation{Type: typ, Value: value, Verdict: verdict, Score: score, Source: "simulated-intel", Simulated: true}
}

const encodedPowerShellOnly = `{"DetectName": "Suspicious PowerShell execution", "CommandLine": "powershell.exe -NoProfile -EncodedCommand JABjAGwAaQBlAG4AdAAgAD0AIABOAGUAdwAtAE8AYgBqAGUAYwB0AA==", "HostnameField": "DEV-BLD-03"}`

func TestRuleAnalyzerIntelSignal(t *testing.T) {
	knownBad := rep(IndicatorHash, "e99a18c428cb38d5f260853678922e03", ReputationMalicious, 100)
	tests := []struct {
		name         string
		incidentType string
		payload      string
		intel        []Reputation
		baseClass    string // without intel
		class        string // with intel
		category     string // empty: not checked
		wantActions  []string
		reasonHas    []string
	}{
		{
			name: "malicious sender domain turns suspicious phishing malicious", incidentType: "phishing", payload: phishMiddle,
			intel:     []Reputation{rep(IndicatorDomain, "mailbox-notices.net", ReputationMalicious, 92)},
			baseClass: ClassSuspicious, class: ClassMalicious, category: "impersonation",
			wantActions: []string{ActionQuarantineEmail, ActionBlockSender, ActionCreateTicket, ActionNotifyUser},
			reasonHas:   []string{"Threat intelligence rates domain mailbox-notices.net malicious (score 92, source simulated-intel) (+0.36)", "Net score 0.86: malicious."},
		},
		{
			name: "suspicious reputation adds less", incidentType: "phishing", payload: phishMiddle,
			intel:     []Reputation{rep(IndicatorDomain, "mailbox-notices.net", ReputationSuspicious, 55)},
			baseClass: ClassSuspicious, class: ClassSuspicious,
			wantActions: []string{ActionQuarantineEmail, ActionCreateTicket},
			reasonHas:   []string{"domain mailbox-notices.net suspicious (score 55, source simulated-intel) (+0.10)"},
		},
		{
			name: "malicious url alone makes an empty report suspicious", incidentType: "phishing", payload: phishPersonalMail,
			intel:     []Reputation{rep(IndicatorURL, "http://evil.example/a", ReputationMalicious, 70)},
			baseClass: ClassUnknown, class: ClassSuspicious, category: "phishing",
			wantActions: []string{ActionQuarantineEmail, ActionCreateTicket},
			reasonHas:   []string{"url http://evil.example/a malicious (score 70, source simulated-intel) (+0.25)"},
		},
		{
			name: "a newsletter with a malicious link is no longer benign", incidentType: "phishing", payload: phishNewsletterSubstack,
			intel:     []Reputation{rep(IndicatorURL, "https://threatbrief.substack.com/p/issue-112", ReputationMalicious, 95)},
			baseClass: ClassBenign, class: ClassSuspicious, category: "phishing",
			wantActions: []string{ActionQuarantineEmail, ActionCreateTicket},
		},
		{
			name: "known-bad hash turns suspicious malware malicious", incidentType: "malware", payload: encodedPowerShellOnly,
			intel:     []Reputation{knownBad},
			baseClass: ClassSuspicious, class: ClassMalicious, category: "malware",
			wantActions: []string{ActionIsolateHost, ActionScanHost, ActionCreateTicket},
			reasonHas:   []string{"hash e99a18c428cb38d5f260853678922e03 malicious (score 100, source simulated-intel) (+0.40)", "Affected host: DEV-BLD-03."},
		},
		{
			name: "already malicious stays malicious with the intel named", incidentType: "malware", payload: edrRansomware,
			intel:     []Reputation{knownBad},
			baseClass: ClassMalicious, class: ClassMalicious, category: "ransomware",
			wantActions: []string{ActionIsolateHost, ActionScanHost, ActionCreateTicket},
			reasonHas:   []string{"Threat intelligence rates hash", "FIN-WS-042"},
		},
		{
			name: "malicious source ip raises a failed login", incidentType: "suspicious_login",
			payload:   `{"user": "kate@contoso.com", "src_ip": "203.0.113.9", "new_device": true, "mfa": {"result": "denied"}, "status": "failure"}`,
			intel:     []Reputation{rep(IndicatorIP, "203.0.113.9", ReputationMalicious, 90)},
			baseClass: ClassUnknown, class: ClassSuspicious,
			wantActions: []string{ActionCreateTicket},
			reasonHas:   []string{"ip 203.0.113.9 malicious (score 90"},
		},
		{
			name: "generic alerts never become malicious", incidentType: "custom_alert", payload: `{"rule": "x"}`,
			intel: []Reputation{
				rep(IndicatorIP, "203.0.113.9", ReputationMalicious, 100),
				rep(IndicatorDomain, "a.example", ReputationMalicious, 95),
				rep(IndicatorURL, "http://a.example/x", ReputationMalicious, 90),
				rep(IndicatorHash, "e99a18c428cb38d5f260853678922e03", ReputationMalicious, 85),
			},
			baseClass: ClassUnknown, class: ClassSuspicious, category: "custom_alert",
			wantActions: []string{ActionCreateTicket},
			reasonHas: []string{
				"ip 203.0.113.9 malicious (score 100, source simulated-intel), domain a.example malicious (score 95, source simulated-intel), url http://a.example/x malicious (score 90, source simulated-intel) and 1 more indicator(s) likewise (+0.45)",
			},
		},
		{
			name: "malicious verdict with a low score counts as suspicious", incidentType: "phishing", payload: phishPersonalMail,
			intel:     []Reputation{rep(IndicatorDomain, "x.example", ReputationMalicious, 60)},
			baseClass: ClassUnknown, class: ClassSuspicious,
			wantActions: []string{ActionQuarantineEmail, ActionCreateTicket},
			reasonHas:   []string{"domain x.example malicious (score 60, source simulated-intel) (+0.10)"},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			inc := Incident{IncidentType: tc.incidentType, Severity: "", Source: "test", RawData: mustJSON(t, tc.payload)}
			base := analyzeRules(t, inc)
			if base.Verdict.Classification != tc.baseClass {
				t.Fatalf("fixture drifted: base classification = %s, want %s", base.Verdict.Classification, tc.baseClass)
			}
			inc.Intel = tc.intel
			a := analyzeRules(t, inc)
			v := a.Verdict
			t.Logf("%s %.2f %s | %s | %v", v.Classification, v.Confidence, v.Category, v.Reasoning, a.RecommendedActions)
			if v.Classification != tc.class {
				t.Errorf("classification = %s, want %s", v.Classification, tc.class)
			}
			if tc.category != "" && v.Category != tc.category {
				t.Errorf("category = %s, want %s", v.Category, tc.category)
			}
			if !reflect.DeepEqual(a.RecommendedActions, tc.wantActions) {
				t.Errorf("actions = %v, want %v", a.RecommendedActions, tc.wantActions)
			}
			for _, want := range tc.reasonHas {
				if !strings.Contains(v.Reasoning, want) {
					t.Errorf("reasoning lacks %q: %s", want, v.Reasoning)
				}
			}
			if v.Confidence < base.Verdict.Confidence && v.Classification == base.Verdict.Classification && v.Classification != ClassUnknown {
				t.Errorf("confidence fell from %.2f to %.2f", base.Verdict.Confidence, v.Confidence)
			}
			if a.trail != nil {
				t.Error("evidence trail leaked out of Analyze")
			}
			checkInvariants(t, a)
		})
	}
}

func TestRuleAnalyzerIntelIgnoredVerdicts(t *testing.T) {
	// Clean and unknown reputations earn no credit: attackers host on
	// reputable services, and "no data" is not evidence.
	for _, payload := range []string{phishMiddle, phishNewsletterSubstack, edrRansomware, genericDLP} {
		inc := Incident{IncidentType: "phishing", RawData: mustJSON(t, payload)}
		want := analyze(t, inc)
		inc.Intel = []Reputation{
			rep(IndicatorDomain, "mailbox-notices.net", ReputationClean, 0),
			rep(IndicatorDomain, "substack.com", ReputationUnknown, 12),
			rep(IndicatorDomain, "weird.example", "bogus", 99),
		}
		if got := analyze(t, inc); !reflect.DeepEqual(got, want) {
			t.Errorf("clean/unknown intel changed the analysis:\n%+v\n%+v", got, want)
		}
	}
}

func TestRuleAnalyzerIntelDeterministic(t *testing.T) {
	reps := []Reputation{
		rep(IndicatorURL, "https://micros0ft-support.com/login", ReputationMalicious, 90),
		rep(IndicatorDomain, "micros0ft-support.com", ReputationMalicious, 90),
		rep(IndicatorIP, "198.51.100.7", ReputationSuspicious, 40),
		rep(IndicatorDomain, "micros0ft-support.com", ReputationSuspicious, 50), // duplicate indicator, lower score
		rep(IndicatorHash, "6dcd4ce23d88e2ee9568ba546c007c63d9131c1b", ReputationMalicious, 100),
		rep(IndicatorDomain, "bit.ly", ReputationSuspicious, 40),
	}
	inc := Incident{IncidentType: "phishing", RawData: mustJSON(t, phishPersonalMail), Intel: reps}
	first := analyze(t, inc)
	for i := range 20 {
		shuffled := slices.Clone(reps)
		// A fixed rotation and reversal per run: input order must not matter.
		shuffled = append(shuffled[i%len(reps):], shuffled[:i%len(reps)]...)
		if i%2 == 1 {
			slices.Reverse(shuffled)
		}
		inc.Intel = shuffled
		if again := analyze(t, inc); !reflect.DeepEqual(first, again) {
			t.Fatalf("order %d changed the analysis:\n%s\n%s", i, first.Verdict.Reasoning, again.Verdict.Reasoning)
		}
	}
	r := first.Verdict.Reasoning
	want := "hash 6dcd4ce23d88e2ee9568ba546c007c63d9131c1b malicious (score 100, source simulated-intel), " +
		"domain micros0ft-support.com malicious (score 90, source simulated-intel), " +
		"url https://micros0ft-support.com/login malicious (score 90, source simulated-intel) (+0.45)"
	if !strings.Contains(r, want) {
		t.Errorf("malicious tier not ordered by score, type, value or not capped: %s", r)
	}
	if !strings.Contains(r, "domain bit.ly suspicious (score 40, source simulated-intel), ip 198.51.100.7 suspicious (score 40, source simulated-intel) (+0.15)") {
		t.Errorf("suspicious tier wrong (the duplicate domain must count once, as malicious): %s", r)
	}
}

func TestRuleAnalyzerIntelHostileValues(t *testing.T) {
	reps := make([]Reputation, 0, 1000)
	for i := range 1000 {
		reps = append(reps, Reputation{
			Type: IndicatorURL, Value: fmt.Sprintf("http://a.example/%d\nFORGED LINE %s", i, strings.Repeat("x", 5000)),
			Verdict: ReputationMalicious, Score: 1000, Source: "feed\r\nX-Injected: 1",
		})
	}
	for _, typ := range []string{"phishing", "malware", "suspicious_login", "other"} {
		a := analyze(t, Incident{IncidentType: typ, Intel: reps})
		checkInvariants(t, a)
		if n := len(a.Verdict.Reasoning); n > 2000 {
			t.Errorf("%s: reasoning is %d bytes", typ, n)
		}
		if strings.ContainsAny(a.Verdict.Reasoning, "\n\r") {
			t.Errorf("%s: control characters leaked into reasoning: %q", typ, a.Verdict.Reasoning)
		}
		if !strings.Contains(a.Verdict.Reasoning, "(score 100,") || !strings.Contains(a.Verdict.Reasoning, "and 997 more indicator(s) likewise") {
			t.Errorf("%s: score not clamped or extra indicators not counted: %s", typ, a.Verdict.Reasoning)
		}
	}
}

// TestEscalateMatchesAnalyzers keeps escalate's action tables in step with
// what the type-specific analyzers recommend for the same class.
func TestEscalateMatchesAnalyzers(t *testing.T) {
	for _, tc := range []struct {
		incidentType, severity, payload, class string
	}{
		{"phishing", "high", phishLookalikeCredential, ClassMalicious},
		{"phishing", "high", phishMiddle, ClassSuspicious},
		{"phishing", "high", phishPersonalMail, ClassUnknown},
		{"malware", "high", edrRansomware, ClassMalicious},
		// Rated medium: a high rating would lift it to malicious
		// (applyVendorRating).
		{"malware", "medium", encodedPowerShellOnly, ClassSuspicious},
		{"malware", "high", `{}`, ClassSuspicious},
		{"suspicious_login", "high", loginTakeover, ClassMalicious},
		{"suspicious_login", "high", loginBruteForce, ClassSuspicious},
		{"other", "high", genericDLP, ClassSuspicious},
	} {
		a := analyzeRules(t, Incident{IncidentType: tc.incidentType, Severity: tc.severity, RawData: mustJSON(t, tc.payload)})
		if a.Verdict.Classification != tc.class {
			t.Fatalf("%s fixture is %s, want %s", tc.incidentType, a.Verdict.Classification, tc.class)
		}
		_, got := escalate(incidentKind(tc.incidentType), tc.class, a.Verdict.Category)
		if !slices.Equal(got, a.RecommendedActions) {
			t.Errorf("%s %s: escalate recommends %v, analyzer %v", tc.incidentType, tc.class, got, a.RecommendedActions)
		}
	}
}

func TestIntelDoesNotTouchLLMFields(t *testing.T) {
	a, err := RuleAnalyzer{}.Analyze(context.Background(), Incident{IncidentType: "phishing",
		Intel: []Reputation{rep(IndicatorDomain, "x.example", ReputationMalicious, 99)}}, Indicators{})
	if err != nil {
		t.Fatal(err)
	}
	if a.FallbackReason != "" || a.Model != "" || a.Analyzer != BuiltinAnalyzerName {
		t.Errorf("rule analyzer set model fields: %+v", a)
	}
}
