package workflows

import (
	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"

	"github.com/vigil-soc/vigil/activities"
	"github.com/vigil-soc/vigil/triage"
)

// changeTriageInProcess is the version at which a triage run does its quick
// steps (extract, enrich, analyse with the built-in rules, record, prepare
// the recommended actions) in one local activity, keeps a regular activity
// only for an analysis that calls out to a model, and starts its
// recommended actions all at once.
const changeTriageInProcess = "triage-in-process"

// runTriageInProcess is runTriage from changeTriageInProcess on.
func runTriageInProcess(ctx workflow.Context, in TriageInput, view bool) (TriageResult, error) {
	step := activities.TriageStepInput{IncidentID: in.IncidentID, TriageID: in.TriageID, RequestActions: in.RequestActions}
	var done activities.TriageStep
	if err := workflow.ExecuteLocalActivity(localLike(ctx, view, "extract, enrich, analyse and record"),
		activityRef.TriageInProcess, step).Get(ctx, &done); err != nil {
		return TriageResult{}, err
	}
	out := done.Outcome
	if done.Evidence != nil {
		var analysis triage.Analysis
		if err := workflow.ExecuteActivity(summarised(analysisOptions(ctx), view, "analyse incident"),
			activityRef.AnalyzeIncident, *done.Evidence).Get(ctx, &analysis); err != nil {
			return TriageResult{}, err
		}
		fin := activities.FinishTriageInput{TriageStepInput: step, Evidence: *done.Evidence, Analysis: analysis}
		if err := workflow.ExecuteLocalActivity(localLike(ctx, view, "record verdict"),
			activityRef.FinishTriage, fin).Get(ctx, &out); err != nil {
			return TriageResult{}, err
		}
	}
	res := TriageResult{
		TriageID:           in.TriageID,
		Verdict:            out.Analysis.Verdict,
		RecommendedActions: out.Analysis.RecommendedActions,
		Analyzer:           out.Analysis.Analyzer,
		DurationMS:         out.Record.DurationMS,
	}
	if in.RequestActions {
		res.RequestedActions = startRecommendedActions(ctx, out.Recommended, view)
	}
	return res, nil
}

// startRecommendedActions starts an Action workflow for each recommended
// action, all at once, and returns the ids of those that started. The
// children outlive the triage run, which does not wait for approvals.
func startRecommendedActions(ctx workflow.Context, recs []activities.RecommendedAction, view bool) []string {
	started := make([]workflow.Future, len(recs))
	for i, r := range recs {
		started[i] = startRecommendedAction(ctx, r, view)
	}
	ids := make([]string, 0, len(recs))
	for i, f := range started {
		if err := f.Get(ctx, nil); err != nil {
			workflow.GetLogger(ctx).Warn("recommended action not started", "action_id", recs[i].ActionID, "error", err)
			continue
		}
		ids = append(ids, recs[i].ActionID)
	}
	return ids
}

// startRecommendedAction starts one recommended action's run as an
// abandoned child and returns the future of its start.
func startRecommendedAction(ctx workflow.Context, r activities.RecommendedAction, view bool) workflow.Future {
	attrs := append([]temporal.SearchAttributeUpdate{SearchActionType.ValueSet(r.ActionType)},
		IncidentAttrs(r.IncidentNumber, r.Severity, r.IncidentType)...)
	opts := Start{ID: ActionWorkflowID(r.ActionID), Summary: r.Summary, Details: r.Details, Attrs: attrs}.ChildOptions(view)
	opts.ParentClosePolicy = enumspb.PARENT_CLOSE_POLICY_ABANDON
	child := workflow.ExecuteChildWorkflow(workflow.WithChildOptions(ctx, opts), Action, ActionInput{ActionID: r.ActionID})
	return child.GetChildWorkflowExecution()
}
