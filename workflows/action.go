package workflows

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"

	"github.com/vigil-soc/vigil/activities"
	"github.com/vigil-soc/vigil/runview"
)

// ActionInput starts an Action workflow.
type ActionInput struct {
	ActionID string
}

// ActionOutcome is how an Action workflow ended.
type ActionOutcome struct {
	Status string // ActionStatusCompleted, ActionStatusFailed, ActionStatusRejected
	Result *activities.ExecutionResult
	Error  string
}

// ApproveSignal is sent when an approver approves a waiting action.
type ApproveSignal struct {
	By      string
	Comment string
}

// RejectSignal is sent when an approver rejects a waiting action.
type RejectSignal struct {
	By     string
	Reason string
}

// Stages an Action workflow reports through QueryActionStage.
const (
	StageDeciding         = "deciding"
	StageAwaitingApproval = "awaiting_approval"
	StageParked           = "parked_by_kill_switch"
	StageExecuting        = "executing"
	StageDone             = "done"
)

// killSwitchRecheck bounds how long a parked action waits without a resume
// signal before looking at the kill switch again, in case a signal was lost.
const killSwitchRecheck = time.Minute

// actionRun holds one Action workflow's state.
type actionRun struct {
	in    ActionInput
	stage string
	// view is set when the run describes itself to the Temporal UI (see
	// changeOperatorView); plan and status feed what it shows.
	view   bool
	plan   activities.ActionPlan
	status string
	// decide is set when the run is woken by UpdateDecide (see
	// changeUpdateDecisions) rather than by signals.
	decide *decideState
}

// Action decides an action by policy, waits for approval when policy asks
// for it (for as long as the approval expiry allows), executes it through
// its connector unless the kill switch holds it, and records the outcome.
func Action(ctx workflow.Context, in ActionInput) (ActionOutcome, error) {
	r := &actionRun{in: in, stage: StageDeciding}
	if err := workflow.SetQueryHandler(ctx, QueryActionStage, func() (string, error) { return r.stage, nil }); err != nil {
		return ActionOutcome{}, err
	}
	ctx = workflow.WithActivityOptions(ctx, workflow.ActivityOptions{
		StartToCloseTimeout: time.Minute,
		RetryPolicy: &temporal.RetryPolicy{
			InitialInterval:        time.Second,
			BackoffCoefficient:     2,
			MaximumInterval:        time.Minute,
			MaximumAttempts:        20,
			NonRetryableErrorTypes: []string{activities.ErrTypeNotFound, activities.ErrTypeKillSwitch, activities.ErrTypePermanent},
		},
	})
	// Runs recorded before decisions were read back from the store keep
	// their original path; the execution claim guards them all the same.
	paths := actionChanges(ctx)
	r.view = paths.view
	if r.view {
		workflow.SetCurrentDetails(ctx, "deciding by policy")
	}
	if paths.updates {
		if err := r.registerDecide(ctx); err != nil {
			return ActionOutcome{}, err
		}
	}
	var plan activities.ActionPlan
	if err := r.decideByPolicy(ctx, paths.localDecide).Get(ctx, &plan); err != nil {
		out, err := r.fail(ctx, "policy evaluation failed: "+err.Error())
		return r.finish(ctx, out, err)
	}
	if paths.storeDecides {
		out, err := r.runOnStoreDecisions(ctx, plan)
		return r.finish(ctx, out, err)
	}
	switch plan.Outcome {
	case activities.OutcomeDeny:
		r.stage = StageDone
		return ActionOutcome{Status: ActionStatusRejected}, nil
	case activities.OutcomeRequireApproval:
		approved, outcome, err := r.awaitApproval(ctx, plan)
		if !approved {
			return outcome, err
		}
	}
	return r.execute(ctx)
}

// decideByPolicy asks policy for the action's plan: a local activity from
// changeActionLocalDecide on (a read and a rule evaluation, well within a
// local activity's bounds), a regular one before.
func (r *actionRun) decideByPolicy(ctx workflow.Context, local bool) workflow.Future {
	if local {
		return workflow.ExecuteLocalActivity(localLike(ctx, r.view, "policy decision"), activityRef.DecideAction, r.in.ActionID)
	}
	return workflow.ExecuteActivity(summarised(ctx, r.view, "policy decision"), activityRef.DecideAction, r.in.ActionID)
}

// awaitApproval notifies approvers and waits for approve, reject or expiry.
func (r *actionRun) awaitApproval(ctx workflow.Context, plan activities.ActionPlan) (bool, ActionOutcome, error) {
	r.stage = StageAwaitingApproval
	// A failed notification must not lose the action: it still waits.
	if err := workflow.ExecuteActivity(ctx, activityRef.NotifyApprovers, r.in.ActionID).Get(ctx, nil); err != nil {
		workflow.GetLogger(ctx).Warn("approvers not notified", "action_id", r.in.ActionID, "error", err)
	}
	timerCtx, cancelTimer := workflow.WithCancel(ctx)
	defer cancelTimer()
	var approved, rejected bool
	sel := workflow.NewSelector(ctx)
	sel.AddReceive(workflow.GetSignalChannel(ctx, SignalApprove), func(c workflow.ReceiveChannel, _ bool) {
		var s ApproveSignal
		c.Receive(ctx, &s)
		approved = true
	})
	sel.AddReceive(workflow.GetSignalChannel(ctx, SignalReject), func(c workflow.ReceiveChannel, _ bool) {
		var s RejectSignal
		c.Receive(ctx, &s)
		rejected = true
	})
	// Neither signal by the deadline means the approval expired.
	sel.AddFuture(workflow.NewTimer(timerCtx, plan.ApprovalExpiry), func(workflow.Future) {})
	sel.Select(ctx)
	switch {
	case approved:
		return true, ActionOutcome{}, nil
	case rejected:
		r.stage = StageDone
		return false, ActionOutcome{Status: ActionStatusRejected}, nil
	}
	out, err := r.fail(ctx, fmt.Sprintf("approval expired: no decision within %s", plan.ApprovalExpiry))
	return false, out, err
}

// execute runs the connector call, parking while the kill switch is on.
func (r *actionRun) execute(ctx workflow.Context) (ActionOutcome, error) {
	for {
		r.stage = StageExecuting
		var res activities.ExecutionResult
		err := workflow.ExecuteActivity(ctx, activityRef.ExecuteAction, r.in.ActionID).Get(ctx, &res)
		var appErr *temporal.ApplicationError
		if errors.As(err, &appErr) && appErr.Type() == activities.ErrTypeKillSwitch {
			r.park(ctx, err)
			continue
		}
		if err != nil {
			return r.fail(ctx, "execution failed: "+rootMessage(err))
		}
		if err := workflow.ExecuteActivity(ctx, activityRef.RecordActionResult, r.in.ActionID, res).Get(ctx, nil); err != nil {
			return ActionOutcome{}, err
		}
		r.stage = StageDone
		return ActionOutcome{Status: ActionStatusCompleted, Result: &res}, nil
	}
}

// park registers with the kill switch and sleeps until it sends resume.
// err is the refusal, which names the kill switch's reason.
func (r *actionRun) park(ctx workflow.Context, err error) {
	r.stage = StageParked
	_, reason, _ := strings.Cut(rootMessage(err), "kill switch active:")
	r.report(ctx, "", runview.Parked(reason))
	parkUntilResumed(ctx, r.view)
}

// parkUntilResumed registers the calling workflow with the kill switch and
// sleeps until it sends resume (or a recheck interval passes). The kill
// switch answers a park at once when it is no longer active, so a
// deactivation in between is never missed.
func parkUntilResumed(ctx workflow.Context, view bool) {
	me := workflow.GetInfo(ctx).WorkflowExecution.ID
	err := workflow.SignalExternalWorkflow(ctx, KillSwitchWorkflowID, "", SignalPark, me).Get(ctx, nil)
	if err != nil {
		workflow.GetLogger(ctx).Warn("kill switch unreachable; polling instead", "error", err)
	}
	timerCtx, cancel := workflow.WithCancel(ctx)
	defer cancel()
	sel := workflow.NewSelector(ctx)
	sel.AddReceive(workflow.GetSignalChannel(ctx, SignalResume), func(c workflow.ReceiveChannel, _ bool) {
		c.Receive(ctx, nil)
	})
	sel.AddFuture(newTimer(timerCtx, view, killSwitchRecheck, "kill switch recheck"), func(workflow.Future) {})
	sel.Select(ctx)
}

func (r *actionRun) fail(ctx workflow.Context, reason string) (ActionOutcome, error) {
	r.stage = StageDone
	dctx, cancel := workflow.NewDisconnectedContext(ctx)
	defer cancel()
	dctx = summarised(dctx, r.view, "record failure")
	if err := workflow.ExecuteActivity(dctx, activityRef.FailAction, r.in.ActionID, reason).Get(dctx, nil); err != nil {
		return ActionOutcome{}, err
	}
	r.report(dctx, ActionStatusFailed, runview.Ended(ActionStatusFailed, failureCause(reason)))
	return ActionOutcome{Status: ActionStatusFailed, Error: reason}, nil
}

// rootMessage strips Temporal's wrapping so the stored error reads as the
// connector's own words.
func rootMessage(err error) string {
	var appErr *temporal.ApplicationError
	if errors.As(err, &appErr) {
		return appErr.Error()
	}
	return err.Error()
}
