package workflows

import (
	"errors"
	"fmt"
	"time"

	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"

	"github.com/vigil-soc/vigil/activities"
	"github.com/vigil-soc/vigil/runview"
)

// changeStoreDecisions names the change after which Action workflows act
// on the decision the store records and never on a signal's word.
const changeStoreDecisions = "store-decisions"

// runOnStoreDecisions carries out policy's plan. A signal only wakes the
// workflow: what happens next is what the store records (read back by a
// local activity), and the execution itself claims the action in the store.
func (r *actionRun) runOnStoreDecisions(ctx workflow.Context, plan activities.ActionPlan) (ActionOutcome, error) {
	r.plan = plan
	switch plan.Outcome {
	case activities.OutcomeDeny:
		r.stage = StageDone
		r.report(ctx, ActionStatusRejected, runview.Ended(ActionStatusRejected, "denied by policy rule "+plan.RuleName))
		return ActionOutcome{Status: ActionStatusRejected}, nil
	case activities.OutcomeRequireApproval:
		return r.awaitStoredApproval(ctx, plan)
	}
	out, _, err := r.executeClaimed(ctx, false)
	return out, err
}

// awaitStoredApproval waits until the store records a decision, woken by
// the decide update (runs since changeUpdateDecisions), approve and reject
// signals, or a periodic recheck, until the approval expires. A wake-up
// with no decision behind it changes nothing and is logged as suspicious.
func (r *actionRun) awaitStoredApproval(ctx workflow.Context, plan activities.ActionPlan) (ActionOutcome, error) {
	r.stage = StageAwaitingApproval
	waiting := r.awaitingDetails(ctx)
	r.report(ctx, ActionStatusPendingApproval, waiting)
	// A failed notification must not lose the action: it still waits.
	nctx := summarised(ctx, r.view, "notify "+plan.ApprovalLevel+" approvers")
	if err := workflow.ExecuteActivity(nctx, activityRef.NotifyApprovers, r.in.ActionID).Get(ctx, nil); err != nil {
		workflow.GetLogger(ctx).Warn("approvers not notified", "action_id", r.in.ActionID, "error", err)
	}
	lctx := workflow.WithLocalActivityOptions(ctx, workflow.LocalActivityOptions{StartToCloseTimeout: 10 * time.Second,
		RetryPolicy: &temporal.RetryPolicy{MaximumAttempts: 5, NonRetryableErrorTypes: []string{activities.ErrTypeNotOwner}}})
	lctx = summarisedLocal(lctx, r.view, "read the stored decision")
	timerCtx, cancelTimer := workflow.WithCancel(ctx)
	defer cancelTimer()
	woke, expired, covers := "", false, 0
	sel := workflow.NewSelector(ctx)
	// Signals and updates only wake the run; the store decides.
	for _, name := range []string{SignalApprove, SignalReject} {
		sel.AddReceive(workflow.GetSignalChannel(ctx, name), func(c workflow.ReceiveChannel, _ bool) {
			c.Receive(ctx, nil)
			woke = name
		})
	}
	if r.decide != nil {
		r.decide.addWakes(timerCtx, sel, r.view, &woke)
	}
	// No decision by the deadline means the approval expired; the deadline
	// stays the original one however many wake-ups arrive.
	sel.AddFuture(newTimer(timerCtx, r.view, plan.ApprovalExpiry, "approval expiry"), func(workflow.Future) { expired = true })
	for {
		sel.Select(ctx)
		if expired {
			return r.fail(ctx, fmt.Sprintf("approval expired: no decision within %s", plan.ApprovalExpiry))
		}
		if r.decide != nil {
			covers = r.decide.asked
		}
		var d activities.StoredDecision
		if err := workflow.ExecuteLocalActivity(lctx, activityRef.ReadActionDecision, r.in.ActionID).Get(ctx, &d); err != nil {
			if isErrType(err, activities.ErrTypeNotOwner) {
				return r.refused(ctx, err)
			}
			workflow.GetLogger(ctx).Error("stored decision not read; still waiting", "action_id", r.in.ActionID, "error", err)
			continue
		}
		switch d.State {
		case activities.DecisionRejected:
			r.stage = StageDone
			r.report(ctx, ActionStatusRejected, runview.Ended(ActionStatusRejected, "by an approver"))
			return ActionOutcome{Status: ActionStatusRejected}, nil
		case activities.DecisionEnded:
			r.stage = StageDone
			r.report(ctx, d.Status, runview.Ended(d.Status, "ended outside this run"))
			return ActionOutcome{Status: d.Status}, nil
		case activities.DecisionApproved:
			out, waitAgain, err := r.executeClaimed(ctx, true)
			if !waitAgain {
				return out, err
			}
			r.stage = StageAwaitingApproval
			r.report(ctx, ActionStatusPendingApproval, waiting)
		default:
			workflow.GetLogger(ctx).Warn("suspicious: wake-up without a decision in the store; ignored",
				"action_id", r.in.ActionID, "by", woke)
		}
		if r.decide != nil {
			r.decide.answered = covers
		}
	}
}

// executeClaimed runs the connector call through the store's claim,
// parking while the kill switch is on. When the store records no approval
// and mayWait is set (the action awaits one), it reports waitAgain instead
// of failing; an auto-approved action, which cannot get one, fails.
func (r *actionRun) executeClaimed(ctx workflow.Context, mayWait bool) (out ActionOutcome, waitAgain bool, err error) {
	for {
		r.stage = StageExecuting
		r.report(ctx, ActionStatusExecuting, runview.Executing(r.plan.ConnectorCall))
		var res activities.ExecutionResult
		err := r.callConnector(ctx, &res)
		switch {
		case isErrType(err, activities.ErrTypeKillSwitch):
			r.park(ctx, err)
			continue
		case isErrType(err, activities.ErrTypeNotOwner):
			out, err := r.refused(ctx, err)
			return out, false, err
		case isErrType(err, activities.ErrTypeNotApproved) && mayWait:
			workflow.GetLogger(ctx).Warn("execution refused: no approval recorded; waiting", "action_id", r.in.ActionID)
			return ActionOutcome{}, true, nil
		case err != nil:
			out, err := r.fail(ctx, "execution failed: "+rootMessage(err))
			return out, false, err
		}
		if err := r.recordResult(ctx, res); err != nil {
			return ActionOutcome{}, false, err
		}
		r.stage = StageDone
		r.report(ctx, ActionStatusCompleted, runview.Ended(ActionStatusCompleted, r.plan.ConnectorCall))
		return ActionOutcome{Status: ActionStatusCompleted, Result: &res}, false, nil
	}
}

// refused ends a workflow that the store does not know as the action's
// own, without touching the action.
func (r *actionRun) refused(ctx workflow.Context, err error) (ActionOutcome, error) {
	r.stage = StageDone
	r.report(ctx, ActionStatusFailed, runview.Ended(ActionStatusFailed, "the store does not know this run as the action's own"))
	workflow.GetLogger(ctx).Warn("suspicious: workflow is not the action's own; ended without effect",
		"action_id", r.in.ActionID, "error", err)
	return ActionOutcome{Status: ActionStatusFailed, Error: rootMessage(err)}, nil
}

func isErrType(err error, typ string) bool {
	var appErr *temporal.ApplicationError
	return errors.As(err, &appErr) && appErr.Type() == typ
}
