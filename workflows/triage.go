package workflows

import (
	"time"

	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"

	"github.com/vigil-soc/vigil/activities"
	"github.com/vigil-soc/vigil/triage"
)

// TriageInput starts a Triage workflow.
type TriageInput struct {
	IncidentID string
	TriageID   string
}

// TriageResult is what a finished Triage workflow returns.
type TriageResult struct {
	TriageID           string
	Verdict            triage.Verdict
	RecommendedActions []string
	Analyzer           string
	DurationMS         int64
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
	res, err := runTriage(ctx, in)
	if err != nil {
		// The failure must be recorded even if this workflow was cancelled.
		dctx, cancel := workflow.NewDisconnectedContext(ctx)
		defer cancel()
		_ = workflow.ExecuteActivity(dctx, activityRef.FailTriage, in.TriageID, err.Error()).Get(dctx, nil)
		return TriageResult{}, err
	}
	return res, nil
}

func runTriage(ctx workflow.Context, in TriageInput) (TriageResult, error) {
	var ev activities.Evidence
	if err := workflow.ExecuteActivity(ctx, activityRef.ExtractIndicators, in.IncidentID).Get(ctx, &ev); err != nil {
		return TriageResult{}, err
	}
	var analysis triage.Analysis
	if err := workflow.ExecuteActivity(ctx, activityRef.AnalyzeIncident, ev).Get(ctx, &analysis); err != nil {
		return TriageResult{}, err
	}
	var rec activities.TriageRecord
	err := workflow.ExecuteActivity(ctx, activityRef.RecordVerdict, in.TriageID, ev.Indicators, analysis).Get(ctx, &rec)
	if err != nil {
		return TriageResult{}, err
	}
	return TriageResult{
		TriageID:           in.TriageID,
		Verdict:            analysis.Verdict,
		RecommendedActions: analysis.RecommendedActions,
		Analyzer:           analysis.Analyzer,
		DurationMS:         rec.DurationMS,
	}, nil
}
