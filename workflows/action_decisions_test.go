package workflows_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/mock"
	"go.temporal.io/sdk/temporal"

	"github.com/vigil-soc/vigil/activities"
	"github.com/vigil-soc/vigil/workflows"
)

// TestActionIgnoresSignalsWithoutStoredDecision sends approve and reject
// signals that no decision in the store backs: the action neither runs nor
// ends, and expires at its original deadline.
func TestActionIgnoresSignalsWithoutStoredDecision(t *testing.T) {
	env := newActionEnv(t)
	env.OnActivity(acts.DecideAction, mock.Anything, "b1").Return(approvalPlan(72*time.Hour), nil).Once()
	env.OnActivity(acts.NotifyApprovers, mock.Anything, "b1").Return(nil).Once()
	env.OnActivity(acts.ReadActionDecision, mock.Anything, "b1").Return(storedNothing, nil).Times(2)
	start := env.Now()
	var failedAt time.Time
	env.OnActivity(acts.FailAction, mock.Anything, "b1", mock.Anything).
		Run(func(mock.Arguments) { failedAt = env.Now() }).Return(nil).Once()
	env.RegisterDelayedCallback(func() {
		env.SignalWorkflow(workflows.SignalApprove, workflows.ApproveSignal{By: "mallory"})
	}, time.Hour)
	env.RegisterDelayedCallback(func() {
		env.SignalWorkflow(workflows.SignalReject, workflows.RejectSignal{By: "mallory", Reason: "x"})
	}, 70*time.Hour)
	env.ExecuteWorkflow(workflows.Action, workflows.ActionInput{ActionID: "b1"})
	var out workflows.ActionOutcome
	if err := env.GetWorkflowResult(&out); err != nil || out.Status != "failed" {
		t.Fatalf("outcome %+v err %v", out, err)
	}
	if waited := failedAt.Sub(start); waited < 72*time.Hour || waited > 73*time.Hour {
		t.Fatalf("expired after %s, want the original 72h", waited)
	}
	env.AssertNotCalled(t, "ExecuteAction", mock.Anything, mock.Anything)
	env.AssertExpectations(t)
}

// TestActionWaitsOnWhenTheClaimFindsNoApproval: the store refuses the
// execution claim for want of an approval; the action goes on waiting and
// runs once a real approval wakes it.
func TestActionWaitsOnWhenTheClaimFindsNoApproval(t *testing.T) {
	env := newActionEnv(t)
	env.OnActivity(acts.DecideAction, mock.Anything, "b2").Return(approvalPlan(time.Hour), nil).Once()
	env.OnActivity(acts.NotifyApprovers, mock.Anything, "b2").Return(nil).Once()
	env.OnActivity(acts.ReadActionDecision, mock.Anything, "b2").Return(storedApproval, nil).Twice()
	refused := temporal.NewNonRetryableApplicationError("no approval", activities.ErrTypeNotApproved, nil)
	env.OnActivity(acts.ExecuteAction, mock.Anything, "b2").Return(activities.ExecutionResult{}, refused).Once()
	env.OnActivity(acts.ExecuteAction, mock.Anything, "b2").Return(okResult, nil).Once()
	env.OnActivity(acts.RecordActionResult, mock.Anything, "b2", okResult).Return(nil).Once()
	env.RegisterDelayedCallback(func() { env.SignalWorkflow(workflows.SignalApprove, nil) }, time.Minute)
	env.RegisterDelayedCallback(func() { env.SignalWorkflow(workflows.SignalApprove, nil) }, 2*time.Minute)
	env.ExecuteWorkflow(workflows.Action, workflows.ActionInput{ActionID: "b2"})
	var out workflows.ActionOutcome
	if err := env.GetWorkflowResult(&out); err != nil || out.Status != "completed" {
		t.Fatalf("outcome %+v err %v", out, err)
	}
	env.AssertExpectations(t)
}

// TestActionOfAnotherWorkflowEndsWithoutEffect: a workflow the store does
// not record for the action is refused by the store and touches nothing.
func TestActionOfAnotherWorkflowEndsWithoutEffect(t *testing.T) {
	env := newActionEnv(t)
	env.OnActivity(acts.DecideAction, mock.Anything, "b3").Return(activities.ActionPlan{Outcome: activities.OutcomeAutoApprove}, nil).Once()
	foreign := temporal.NewNonRetryableApplicationError("not yours", activities.ErrTypeNotOwner, nil)
	env.OnActivity(acts.ExecuteAction, mock.Anything, "b3").Return(activities.ExecutionResult{}, foreign).Once()
	env.ExecuteWorkflow(workflows.Action, workflows.ActionInput{ActionID: "b3"})
	var out workflows.ActionOutcome
	if err := env.GetWorkflowResult(&out); err != nil || out.Status != "failed" {
		t.Fatalf("outcome %+v err %v", out, err)
	}
	env.AssertNotCalled(t, "FailAction", mock.Anything, mock.Anything, mock.Anything)
}
