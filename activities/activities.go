// Package activities holds every side effect Vigil's workflows perform.
// Activities are methods on Activities, which carries their dependencies.
package activities

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/temporal"

	"github.com/vigil-soc/vigil/connectors"
	"github.com/vigil-soc/vigil/intel"
	"github.com/vigil-soc/vigil/notify"
	"github.com/vigil-soc/vigil/policy"
	"github.com/vigil-soc/vigil/runview"
	"github.com/vigil-soc/vigil/settings"
	"github.com/vigil-soc/vigil/store"
	"github.com/vigil-soc/vigil/triage"
)

// Non-retryable application error types raised by activities.
const (
	// ErrTypeNotFound marks a failure caused by a row that does not exist;
	// retrying cannot help.
	ErrTypeNotFound = "NotFound"
)

// Activities carries the dependencies of every activity.
type Activities struct {
	Store      *store.Store
	Analyzer   triage.Analyzer
	Policy     *policy.Engine
	Connectors connectors.Set
	// ConnectorSet, when set, returns the connectors of the current
	// configuration for each action and takes precedence over Connectors.
	// Configuration (secrets included) is loaded here, inside the activity,
	// and never travels through workflow inputs.
	ConnectorSet func(ctx context.Context) (connectors.Set, error)
	Settings     *settings.Service
	Notifier     ApproverNotifier
	Enricher     *intel.Enricher
	// Links lets the summaries of child runs link to their incident.
	Links runview.Links
	// Notify sends notifications for the channel delivery workflows.
	Notify *notify.Service
}

// Evidence is an incident as the analyzer sees it, with its indicators.
type Evidence struct {
	Incident   triage.Incident
	Indicators triage.Indicators
}

// TriageRecord reports what RecordVerdict stored.
type TriageRecord struct {
	TriageID   string
	DurationMS int64
}

// ExtractIndicators loads an incident and pulls the observables out of its
// raw data.
func (a *Activities) ExtractIndicators(ctx context.Context, incidentID string) (Evidence, error) {
	inc, err := a.Store.GetIncident(ctx, incidentID)
	if err != nil {
		return Evidence{}, permanentIfNotFound(fmt.Errorf("load incident %s: %w", incidentID, err))
	}
	return evidenceOf(inc), nil
}

// EnrichIndicators looks the indicators up in threat intelligence. Lookups
// that fail are left out, not fatal: a verdict on partial intel beats no
// verdict.
func (a *Activities) EnrichIndicators(ctx context.Context, ev Evidence) (Evidence, error) {
	if a.Enricher == nil {
		return ev, nil
	}
	reps, err := a.Enricher.Enrich(ctx, ev.Indicators)
	if err != nil {
		activity.GetLogger(ctx).Warn("some threat intelligence lookups failed", "error", err)
	}
	ev.Incident.Intel = reps
	return ev, nil
}

// AnalyzeIncident asks the analyzer for a verdict and recommended actions.
func (a *Activities) AnalyzeIncident(ctx context.Context, ev Evidence) (triage.Analysis, error) {
	analysis, err := a.Analyzer.Analyze(ctx, ev.Incident, ev.Indicators)
	if err != nil {
		return triage.Analysis{}, fmt.Errorf("analyze incident: %w", err)
	}
	return analysis, nil
}

// RecordVerdict stores the analysis on the triage record and the incident.
// Retries are safe: the store ignores a second completion of one triage.
func (a *Activities) RecordVerdict(ctx context.Context, triageID string, ind triage.Indicators, an triage.Analysis) (TriageRecord, error) {
	return a.RecordVerdictWithIntel(ctx, triageID, Evidence{Indicators: ind}, an)
}

// RecordVerdictWithIntel is RecordVerdict that also keeps the intel the
// analysis saw.
func (a *Activities) RecordVerdictWithIntel(ctx context.Context, triageID string, ev Evidence, an triage.Analysis) (TriageRecord, error) {
	t, err := a.completeTriage(ctx, triageID, ev, an, nil)
	if err != nil {
		return TriageRecord{}, err
	}
	return TriageRecord{TriageID: t.ID, DurationMS: t.DurationMS}, nil
}

// completeTriage stores an analysis on its triage record and the incident,
// and creates acts, the actions requested for it, in the same transaction.
func (a *Activities) completeTriage(ctx context.Context, triageID string, ev Evidence, an triage.Analysis, acts []*store.Action) (*store.Triage, error) {
	ind := ev.Indicators
	reps, err := asMaps(ev.Incident.Intel)
	if err != nil {
		return nil, err
	}
	t, err := a.Store.CompleteTriage(ctx, triageID, store.TriageOutcome{
		Verdict:            storedVerdict(an),
		RecommendedActions: an.RecommendedActions,
		Actions:            acts,
		Indicators: map[string][]string{
			"urls": ind.URLs, "domains": ind.Domains, "ips": ind.IPs,
			"hashes": ind.Hashes, "emails": ind.Emails,
		},
		Analyzer: an.Analyzer, Model: an.Model, FallbackReason: an.FallbackReason, Intel: reps,
	})
	if err != nil {
		return nil, permanentIfNotFound(err)
	}
	return t, nil
}

// storedVerdict is an analysis's verdict as the store keeps it.
func storedVerdict(an triage.Analysis) store.Verdict {
	return store.Verdict{
		Classification: an.Verdict.Classification,
		Confidence:     an.Verdict.Confidence,
		Category:       an.Verdict.Category,
		Reasoning:      an.Verdict.Reasoning,
	}
}

// FailTriage records why a triage run ended without a verdict.
func (a *Activities) FailTriage(ctx context.Context, triageID, reason string) error {
	return a.Store.FailTriage(ctx, triageID, reason)
}

func permanentIfNotFound(err error) error {
	if errors.Is(err, store.ErrNotFound) {
		return temporal.NewNonRetryableApplicationError(err.Error(), ErrTypeNotFound, err)
	}
	return err
}

// asMaps turns typed values into the generic JSON shape the store keeps.
func asMaps[T any](v []T) ([]map[string]any, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	var out []map[string]any
	if err := json.Unmarshal(b, &out); err != nil {
		return nil, err
	}
	return out, nil
}
