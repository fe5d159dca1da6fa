package activities

import (
	"context"
	"fmt"
	"slices"

	"github.com/vigil-soc/vigil/store"
	"github.com/vigil-soc/vigil/triage"
)

// TriageStepInput names the triage run a step works for.
type TriageStepInput struct {
	IncidentID string
	TriageID   string
	// RequestActions makes the step prepare the recommended actions of an
	// automated run once the verdict is stored.
	RequestActions bool
}

// TriageOutcome is a stored verdict, with the actions prepared for it when
// the run requests them.
type TriageOutcome struct {
	Analysis    triage.Analysis
	Record      TriageRecord
	Recommended []RecommendedAction
}

// TriageStep is what TriageInProcess did: either the whole triage
// (Outcome), or, when the analyzer calls out to a model, the evidence only,
// for an analysis in an activity of its own (Evidence set, Outcome empty).
type TriageStep struct {
	Evidence *Evidence
	Outcome  TriageOutcome
}

// FinishTriageInput is a triage run's analysis, ready to be stored.
type FinishTriageInput struct {
	TriageStepInput
	Evidence Evidence
	Analysis triage.Analysis
}

// inProcessAnalyzer is an analyzer that may call a service over the
// network (a configured LLM). It answers in process when it would not, and
// otherwise says so: such an analysis runs as an activity of its own, so a
// slow answer is retried and timed on its own and never holds the
// workflow task.
type inProcessAnalyzer interface {
	AnalyzeInProcess(ctx context.Context, inc triage.Incident, ind triage.Indicators) (triage.Analysis, bool, error)
}

// TriageInProcess does a triage run's quick steps in one go: it loads the
// incident, extracts its indicators, enriches them from threat
// intelligence and, unless the analyzer calls out to a model, analyses the
// incident and stores the verdict (FinishTriage). It runs as a local
// activity, so a triage with the built-in analyzer costs one workflow task
// instead of a task-queue round trip per step. Every part is safe to
// repeat: the store ignores a second completion of one triage, and
// recommended actions have ids derived from the run.
func (a *Activities) TriageInProcess(ctx context.Context, in TriageStepInput) (TriageStep, error) {
	inc, err := a.Store.GetIncident(ctx, in.IncidentID)
	if err != nil {
		return TriageStep{}, permanentIfNotFound(fmt.Errorf("load incident %s: %w", in.IncidentID, err))
	}
	ev, err := a.EnrichIndicators(ctx, evidenceOf(inc))
	if err != nil {
		return TriageStep{}, err
	}
	an, local, err := a.analyzeInProcess(ctx, ev)
	if err != nil {
		return TriageStep{}, err
	}
	if !local {
		return TriageStep{Evidence: &ev}, nil
	}
	out, err := a.finishTriage(ctx, FinishTriageInput{TriageStepInput: in, Evidence: ev, Analysis: an}, inc)
	return TriageStep{Outcome: out}, err
}

// analyzeInProcess analyses ev and reports true, unless the analyzer would
// call out to a model: then it reports false and leaves the analysis to
// the run's own activity.
func (a *Activities) analyzeInProcess(ctx context.Context, ev Evidence) (triage.Analysis, bool, error) {
	r, ok := a.Analyzer.(inProcessAnalyzer)
	if !ok {
		an, err := a.AnalyzeIncident(ctx, ev)
		return an, true, err
	}
	an, local, err := r.AnalyzeInProcess(ctx, ev.Incident, ev.Indicators)
	if err != nil {
		return triage.Analysis{}, false, fmt.Errorf("analyze incident: %w", err)
	}
	return an, local, nil
}

// FinishTriage stores a triage run's analysis on the triage record and the
// incident and, for an automated run, prepares its recommended actions.
func (a *Activities) FinishTriage(ctx context.Context, in FinishTriageInput) (TriageOutcome, error) {
	var inc *store.Incident
	if in.RequestActions {
		var err error
		if inc, err = a.Store.GetIncident(ctx, in.IncidentID); err != nil {
			return TriageOutcome{}, permanentIfNotFound(err)
		}
	}
	return a.finishTriage(ctx, in, inc)
}

// finishTriage is FinishTriage with the incident already loaded (needed
// only when the run requests actions). The recommended actions are created
// in the verdict's own transaction, so recording a verdict with its
// actions costs one commit.
func (a *Activities) finishTriage(ctx context.Context, in FinishTriageInput, inc *store.Incident) (TriageOutcome, error) {
	var acts []*store.Action
	if in.RequestActions {
		verdict := storedVerdict(in.Analysis)
		acts = recommendedActions(ctx, inc, &store.Triage{ID: in.TriageID,
			Verdict: store.NewJSON(&verdict), RecommendedActions: store.NewJSON(in.Analysis.RecommendedActions)})
	}
	tr, err := a.completeTriage(ctx, in.TriageID, in.Evidence, in.Analysis, acts)
	if err != nil {
		return TriageOutcome{}, err
	}
	out := TriageOutcome{Analysis: in.Analysis, Record: TriageRecord{TriageID: tr.ID, DurationMS: tr.DurationMS}}
	if in.RequestActions {
		if !slices.Equal(tr.RecommendedActions.V, in.Analysis.RecommendedActions) {
			// An earlier attempt stored another analysis, and with it the
			// actions of its own verdict: those are the run's.
			acts = recommendedActions(ctx, inc, tr)
		}
		out.Recommended = a.recommendedRuns(acts, inc)
	}
	return out, nil
}

// evidenceOf is an incident as the analyzer sees it, with the indicators
// in its raw data.
func evidenceOf(inc *store.Incident) Evidence {
	view := triage.Incident{
		IncidentType: inc.IncidentType,
		Severity:     inc.Severity,
		Source:       inc.Source,
		RawData:      inc.RawData.V,
	}
	return Evidence{Incident: view, Indicators: triage.ExtractIndicators(view.RawData)}
}
