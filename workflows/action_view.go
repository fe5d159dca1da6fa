package workflows

import (
	"strings"

	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"

	"github.com/vigil-soc/vigil/runview"
)

// report shows the run's state in the Temporal UI: details become its
// current details and a new status is upserted as ActionStatus (with the
// approval level while it waits for one) and told to a parent playbook
// run. Runs that do not describe themselves show nothing.
func (r *actionRun) report(ctx workflow.Context, status, details string) {
	if !r.view {
		return
	}
	workflow.SetCurrentDetails(ctx, details)
	if status == "" || status == r.status {
		return
	}
	r.status = status
	attrs := []temporal.SearchAttributeUpdate{SearchActionStatus.ValueSet(status)}
	if status == ActionStatusPendingApproval {
		attrs = append(attrs, SearchApprovalLevel.ValueSet(r.plan.ApprovalLevel))
	}
	if err := workflow.UpsertTypedSearchAttributes(ctx, attrs...); err != nil {
		workflow.GetLogger(ctx).Warn("action status not shown in visibility", "action_id", r.in.ActionID, "error", err)
	}
	r.tellParent(ctx, status)
}

// tellParent lets the playbook run that started this action show what it
// waits for. A triage parent does not wait, so it is not told.
func (r *actionRun) tellParent(ctx workflow.Context, status string) {
	parent := workflow.GetInfo(ctx).ParentWorkflowExecution
	if parent == nil || !strings.HasPrefix(parent.ID, PlaybookRunWorkflowID("")) {
		return
	}
	stage := ActionStage{ActionID: r.in.ActionID, Status: status, ApprovalLevel: r.plan.ApprovalLevel}
	if err := workflow.SignalExternalWorkflow(ctx, parent.ID, "", SignalActionStage, stage).Get(ctx, nil); err != nil {
		workflow.GetLogger(ctx).Info("playbook run not told the action's stage", "action_id", r.in.ActionID, "error", err)
	}
}

// awaitingDetails is what a waiting action shows: the level, since when
// and until when, and the policy rule that asked for approval.
func (r *actionRun) awaitingDetails(ctx workflow.Context) string {
	now := workflow.Now(ctx)
	return runview.AwaitingApproval(r.plan.ApprovalLevel, now, now.Add(r.plan.ApprovalExpiry), r.plan.RuleName, r.plan.Reason)
}
