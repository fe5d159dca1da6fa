package workflows

import (
	"fmt"
	"time"

	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"

	"github.com/vigil-soc/vigil/activities"
	"github.com/vigil-soc/vigil/runview"
	"github.com/vigil-soc/vigil/triage"
)

// TriageInput starts a Triage workflow.
type TriageInput struct {
	IncidentID string
	TriageID   string
	// RequestActions makes the run request its recommended actions through
	// Action workflows (automated triage); policy decides which run at once.
	RequestActions bool
}

// TriageResult is what a finished Triage workflow returns.
type TriageResult struct {
	TriageID           string
	Verdict            triage.Verdict
	RecommendedActions []string
	Analyzer           string
	DurationMS         int64
	// RequestedActions lists the actions an automated run requested.
	RequestedActions []string
}

// activityRef lets workflows name activity methods without a live value.
var activityRef *activities.Activities

// Triage extracts indicators from an incident, analyses it and stores the
// verdict. If any step fails for good, the triage record is marked failed
// before the workflow returns the error.
func Triage(ctx workflow.Context, in TriageInput) (TriageResult, error) {
	ctx = workflow.WithActivityOptions(ctx, workflow.ActivityOptions{
		StartToCloseTimeout: 30 * time.Second,
		RetryPolicy: &temporal.RetryPolicy{
			InitialInterval:    500 * time.Millisecond,
			BackoffCoefficient: 2,
			MaximumInterval:    30 * time.Second,
			MaximumAttempts:    10,
		},
	})
	view, inProcess := triageChanges(ctx)
	res, err := runTriage(ctx, in, view, inProcess)
	if err != nil {
		// The failure must be recorded even if this workflow was cancelled.
		dctx, cancel := workflow.NewDisconnectedContext(ctx)
		defer cancel()
		_ = workflow.ExecuteActivity(summarised(dctx, view, "record failure"), activityRef.FailTriage, in.TriageID, err.Error()).Get(dctx, nil)
		return TriageResult{}, err
	}
	if view {
		workflow.SetCurrentDetails(ctx, runview.Ended("completed", fmt.Sprintf("%s (%.0f%% confidence), %d actions requested",
			res.Verdict.Classification, res.Verdict.Confidence*100, len(res.RequestedActions))))
	}
	return res, nil
}

func runTriage(ctx workflow.Context, in TriageInput, view, inProcess bool) (TriageResult, error) {
	// Runs started before the quick steps became one local activity keep
	// their original path of one activity per step.
	if inProcess {
		return runTriageInProcess(ctx, in, view)
	}
	var ev activities.Evidence
	if err := workflow.ExecuteActivity(summarised(ctx, view, "extract indicators"), activityRef.ExtractIndicators, in.IncidentID).Get(ctx, &ev); err != nil {
		return TriageResult{}, err
	}
	// Enrichment was added after the first release of this workflow; runs
	// recorded before it keep their original path.
	enriched := workflow.GetVersion(ctx, "enrich-indicators", workflow.DefaultVersion, 1) == 1
	if enriched {
		if err := workflow.ExecuteActivity(summarised(ctx, view, "enrich indicators"), activityRef.EnrichIndicators, ev).Get(ctx, &ev); err != nil {
			return TriageResult{}, err
		}
	}
	var analysis triage.Analysis
	if err := workflow.ExecuteActivity(summarised(analysisOptions(ctx), view, "analyse incident"), activityRef.AnalyzeIncident, ev).Get(ctx, &analysis); err != nil {
		return TriageResult{}, err
	}
	var rec activities.TriageRecord
	var err error
	if enriched {
		err = workflow.ExecuteActivity(summarised(ctx, view, "record verdict"), activityRef.RecordVerdictWithIntel, in.TriageID, ev, analysis).Get(ctx, &rec)
	} else {
		err = workflow.ExecuteActivity(ctx, activityRef.RecordVerdict, in.TriageID, ev.Indicators, analysis).Get(ctx, &rec)
	}
	if err != nil {
		return TriageResult{}, err
	}
	res := TriageResult{
		TriageID:           in.TriageID,
		Verdict:            analysis.Verdict,
		RecommendedActions: analysis.RecommendedActions,
		Analyzer:           analysis.Analyzer,
		DurationMS:         rec.DurationMS,
	}
	// Requesting actions was added after the first release of this
	// workflow; runs recorded before it keep their original path.
	if workflow.GetVersion(ctx, "request-recommended-actions", workflow.DefaultVersion, 1) == 1 && in.RequestActions {
		ids, err := requestRecommendedActions(ctx, in, view)
		if err != nil {
			return TriageResult{}, err
		}
		res.RequestedActions = ids
	}
	return res, nil
}

// requestRecommendedActions creates the recommended actions and starts an
// Action workflow for each. The children outlive the triage run, which
// does not wait for approvals.
func requestRecommendedActions(ctx workflow.Context, in TriageInput, view bool) ([]string, error) {
	var recs []activities.RecommendedAction
	if err := workflow.ExecuteActivity(summarised(ctx, view, "prepare recommended actions"), activityRef.PrepareRecommendedActions, in.IncidentID, in.TriageID).Get(ctx, &recs); err != nil {
		return nil, err
	}
	ids := make([]string, 0, len(recs))
	for _, r := range recs {
		if err := startRecommendedAction(ctx, r, view).Get(ctx, nil); err != nil {
			workflow.GetLogger(ctx).Warn("recommended action not started", "action_id", r.ActionID, "error", err)
			continue
		}
		ids = append(ids, r.ActionID)
	}
	return ids, nil
}

// analysisOptions gives the analysis room for an LLM round trip; the
// analyzer bounds its own call and falls back to the built-in rules.
func analysisOptions(ctx workflow.Context) workflow.Context {
	return workflow.WithActivityOptions(ctx, workflow.ActivityOptions{
		StartToCloseTimeout: 6 * time.Minute,
		RetryPolicy:         &temporal.RetryPolicy{InitialInterval: time.Second, MaximumAttempts: 3},
	})
}
