package llm

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"strings"
	"time"

	"github.com/vigil-soc/vigil/settings"
	"github.com/vigil-soc/vigil/triage"
)

// Environment variables that fill in what the llm setting leaves empty.
const (
	EnvBaseURL = "VIGIL_LLM_BASE_URL"
	EnvModel   = "VIGIL_LLM_MODEL"
	EnvAPIKey  = "VIGIL_LLM_API_KEY"
)

// maxReasonBytes bounds Analysis.FallbackReason; transport errors can be
// long and the reason is stored with every triage.
const maxReasonBytes = 300

// Analyzer implements triage.Analyzer: it uses the LLM when configured and
// enabled, and falls back to Fallback (the built-in analyzer) on any error,
// timeout or malformed answer, recording the reason in
// Analysis.FallbackReason. A disabled LLM is not a fallback: the built-in
// analysis is returned without a reason and without any request.
type Analyzer struct {
	// Config reports the current configuration and whether the LLM is
	// enabled. It is called for every incident, so a settings change
	// applies to the next triage without a restart. Nil means disabled.
	Config func(ctx context.Context) (Config, bool, error)
	// Fallback answers when the LLM is disabled or fails; nil means
	// triage.RuleAnalyzer.
	Fallback triage.Analyzer
	// Metrics may be nil.
	Metrics *Metrics
	// HTTP is the client for provider requests; nil means one that
	// follows no redirects.
	HTTP *http.Client
}

var _ triage.Analyzer = (*Analyzer)(nil)

// Analyze classifies inc with the model, or with the fallback as described
// on Analyzer. It fails only when ctx ends or the fallback itself fails.
func (a *Analyzer) Analyze(ctx context.Context, inc triage.Incident, ind triage.Indicators) (triage.Analysis, error) {
	cfg, an, local, err := a.plan(ctx, inc, ind)
	if local {
		return an, err
	}
	promptInd := ind
	if len(ind.URLs)+len(ind.Domains)+len(ind.IPs)+len(ind.Hashes)+len(ind.Emails) == 0 {
		// Callers that skipped extraction still give the model observables.
		promptInd = triage.ExtractIndicators(inc.RawData)
	}
	an, _, err = NewClient(cfg, a.HTTP, a.Metrics).Analyze(ctx, inc, promptInd)
	if err == nil {
		return an, nil
	}
	if ctx.Err() != nil {
		// The caller is gone; a fallback verdict would never be used.
		return triage.Analysis{}, fmt.Errorf("llm analysis: %w", ctx.Err())
	}
	return a.fallback(ctx, inc, ind, err.Error())
}

// AnalyzeInProcess answers as Analyze does when that needs no request to
// the model (the LLM disabled, or its configuration unreadable), reading
// the configuration once, and reports true. When the model is to be asked
// it reports false and does nothing: the caller then asks it through
// Analyze, in a step of its own (triage runs it as a separate activity, so
// a slow model never holds a workflow task).
func (a *Analyzer) AnalyzeInProcess(ctx context.Context, inc triage.Incident, ind triage.Indicators) (triage.Analysis, bool, error) {
	_, an, local, err := a.plan(ctx, inc, ind)
	return an, local, err
}

// plan reads the configuration and, when the model is not to be asked,
// answers with the fallback (local true); otherwise it returns the
// configuration to ask the model with.
func (a *Analyzer) plan(ctx context.Context, inc triage.Incident, ind triage.Indicators) (Config, triage.Analysis, bool, error) {
	reason := ""
	if a.Config != nil {
		cfg, enabled, err := a.Config(ctx)
		switch {
		case err != nil:
			reason = "llm configuration unavailable: " + err.Error()
		case enabled:
			return cfg, triage.Analysis{}, false, nil
		}
	}
	an, err := a.fallback(ctx, inc, ind, reason)
	return Config{}, an, true, err
}

func (a *Analyzer) fallback(ctx context.Context, inc triage.Incident, ind triage.Indicators, reason string) (triage.Analysis, error) {
	fb := a.Fallback
	if fb == nil {
		fb = triage.RuleAnalyzer{}
	}
	an, err := fb.Analyze(ctx, inc, ind)
	if err != nil {
		return triage.Analysis{}, fmt.Errorf("fallback analysis: %w", err)
	}
	an.FallbackReason = clip(blankControls(reason), maxReasonBytes)
	return an, nil
}

// ConfigFromSettings builds an Analyzer.Config over the llm setting, read
// through the settings cache: a change saved through svc applies at once,
// one saved by another process within settings.LLMCacheTTL.
//
// Base URL, model and API key come from the setting; a base URL or model
// it leaves empty is taken from VIGIL_LLM_BASE_URL or VIGIL_LLM_MODEL. The
// key pairs with its base URL: the stored key is used only with the stored
// base URL, and VIGIL_LLM_API_KEY only with VIGIL_LLM_BASE_URL. The LLM is enabled when the setting says so. The
// environment can enable it only while the llm setting has never been
// saved, and only when both VIGIL_LLM_BASE_URL and VIGIL_LLM_MODEL are set:
// that lets a deployment switch the model on from its environment, while an
// administrator who saves the setting with enabled=false turns it off for
// good, whatever the environment says.
func ConfigFromSettings(svc *settings.Service) func(ctx context.Context) (Config, bool, error) {
	return func(ctx context.Context) (Config, bool, error) {
		l, err := svc.CachedLLM(ctx)
		if err != nil {
			return Config{}, false, fmt.Errorf("read llm setting: %w", err)
		}
		envURL, envModel := strings.TrimSpace(os.Getenv(EnvBaseURL)), strings.TrimSpace(os.Getenv(EnvModel))
		cfg := Config{
			Provider: l.Provider,
			BaseURL:  l.BaseURL,
			Model:    firstNonEmpty(l.Model, envModel),
			APIKey:   l.APIKey,
			Timeout:  time.Duration(l.TimeoutSeconds) * time.Second,
		}
		// A key travels only with the base URL it came with: the stored key
		// with the stored base URL, the environment's key with the
		// environment's base URL. Otherwise whoever can change one of them
		// could send the other's key to a server of their choosing.
		if strings.TrimSpace(l.BaseURL) == "" {
			cfg.BaseURL, cfg.APIKey = envURL, ""
			if envURL != "" {
				cfg.APIKey = strings.TrimSpace(os.Getenv(EnvAPIKey))
			}
		}
		enabled := l.Enabled
		if !enabled && envURL != "" && envModel != "" {
			v, err := svc.Get(ctx, settings.KeyLLM)
			if err != nil {
				return Config{}, false, fmt.Errorf("read llm setting: %w", err)
			}
			enabled = v.UpdatedAt == nil
		}
		return cfg, enabled, nil
	}
}

func firstNonEmpty(a, b string) string {
	if strings.TrimSpace(a) != "" {
		return a
	}
	return b
}
