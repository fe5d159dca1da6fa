package workflows_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/mock"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/testsuite"

	"github.com/vigil-soc/vigil/activities"
	"github.com/vigil-soc/vigil/workflows"
)

var acts *activities.Activities

func newActionEnv(t *testing.T) *testsuite.TestWorkflowEnvironment {
	t.Helper()
	var s testsuite.WorkflowTestSuite
	env := s.NewTestWorkflowEnvironment()
	env.RegisterActivity(acts)
	return env
}

func approvalPlan(expiry time.Duration) activities.ActionPlan {
	return activities.ActionPlan{Outcome: activities.OutcomeRequireApproval, ApprovalLevel: "senior", ApprovalExpiry: expiry}
}

var okResult = activities.ExecutionResult{Success: true, Message: "isolated", Output: map[string]any{"status": "isolated"}}

var (
	storedApproval  = activities.StoredDecision{State: activities.DecisionApproved, Status: "pending_approval", By: "sam"}
	storedRejection = activities.StoredDecision{State: activities.DecisionRejected, Status: "rejected", By: "sam"}
	storedNothing   = activities.StoredDecision{State: activities.DecisionUndecided, Status: "pending_approval"}
)

func TestActionExecutesAtOnceWhenPolicyAllows(t *testing.T) {
	env := newActionEnv(t)
	env.OnActivity(acts.DecideAction, mock.Anything, "a1").Return(activities.ActionPlan{Outcome: activities.OutcomeAutoApprove}, nil).Once()
	env.OnActivity(acts.ExecuteAction, mock.Anything, "a1").Return(okResult, nil).Once()
	env.OnActivity(acts.RecordActionResult, mock.Anything, "a1", okResult).Return(nil).Once()
	env.ExecuteWorkflow(workflows.Action, workflows.ActionInput{ActionID: "a1"})
	var out workflows.ActionOutcome
	if err := env.GetWorkflowResult(&out); err != nil || out.Status != "completed" {
		t.Fatalf("outcome %+v err %v", out, err)
	}
	env.AssertExpectations(t)
}

func TestActionWaitsThreeDaysForApproval(t *testing.T) {
	env := newActionEnv(t)
	env.OnActivity(acts.DecideAction, mock.Anything, "a2").Return(approvalPlan(72*time.Hour), nil).Once()
	env.OnActivity(acts.NotifyApprovers, mock.Anything, "a2").Return(nil).Once()
	// The store records the approval at 71 hours; rechecks before then
	// find nothing.
	approved := false
	env.OnActivity(acts.ReadActionDecision, mock.Anything, "a2").Return(func(context.Context, string) (activities.StoredDecision, error) {
		if approved {
			return storedApproval, nil
		}
		return storedNothing, nil
	})
	env.OnActivity(acts.ExecuteAction, mock.Anything, "a2").Return(okResult, nil).Once()
	env.OnActivity(acts.RecordActionResult, mock.Anything, "a2", okResult).Return(nil).Once()
	var stageWhileWaiting string
	var answer workflows.DecideResult
	env.RegisterDelayedCallback(func() {
		v, err := env.QueryWorkflow(workflows.QueryActionStage)
		if err == nil {
			_ = v.Get(&stageWhileWaiting)
		}
		approved = true
		env.UpdateWorkflow(workflows.UpdateDecide, "u1", &testsuite.TestUpdateCallback{
			OnReject:   func(err error) { t.Errorf("decide update rejected: %v", err) },
			OnAccept:   func() {},
			OnComplete: func(v any, err error) { answer, _ = v.(workflows.DecideResult) },
		}, workflows.DecideRequest{})
	}, 71*time.Hour)
	env.ExecuteWorkflow(workflows.Action, workflows.ActionInput{ActionID: "a2"})
	var out workflows.ActionOutcome
	if err := env.GetWorkflowResult(&out); err != nil || out.Status != "completed" {
		t.Fatalf("approved after 71h: %+v %v", out, err)
	}
	if stageWhileWaiting != workflows.StageAwaitingApproval {
		t.Fatalf("stage while waiting = %q", stageWhileWaiting)
	}
	if answer != (workflows.DecideResult{Stage: workflows.StageDone, Status: "completed"}) {
		t.Fatalf("decide update answered %+v", answer)
	}
	env.AssertExpectations(t)
}

func TestActionApprovalExpires(t *testing.T) {
	env := newActionEnv(t)
	env.OnActivity(acts.DecideAction, mock.Anything, "a3").Return(approvalPlan(72*time.Hour), nil).Once()
	env.OnActivity(acts.NotifyApprovers, mock.Anything, "a3").Return(nil).Once()
	var reason string
	env.OnActivity(acts.FailAction, mock.Anything, "a3", mock.Anything).
		Run(func(args mock.Arguments) { reason = args.String(2) }).Return(nil).Once()
	env.ExecuteWorkflow(workflows.Action, workflows.ActionInput{ActionID: "a3"})
	var out workflows.ActionOutcome
	if err := env.GetWorkflowResult(&out); err != nil || out.Status != "failed" {
		t.Fatalf("expiry: %+v %v", out, err)
	}
	if reason == "" || out.Error != reason {
		t.Fatalf("expiry reason %q / %q", reason, out.Error)
	}
	env.AssertNotCalled(t, "ExecuteAction", mock.Anything, mock.Anything)
}

func TestActionRejected(t *testing.T) {
	env := newActionEnv(t)
	env.OnActivity(acts.DecideAction, mock.Anything, "a4").Return(approvalPlan(time.Hour), nil).Once()
	env.OnActivity(acts.NotifyApprovers, mock.Anything, "a4").Return(errors.New("chat down")).Maybe()
	env.OnActivity(acts.ReadActionDecision, mock.Anything, "a4").Return(storedRejection, nil).Once()
	env.RegisterDelayedCallback(func() {
		env.SignalWorkflow(workflows.SignalReject, workflows.RejectSignal{By: "sam", Reason: "false positive"})
	}, time.Minute)
	env.ExecuteWorkflow(workflows.Action, workflows.ActionInput{ActionID: "a4"})
	var out workflows.ActionOutcome
	if err := env.GetWorkflowResult(&out); err != nil || out.Status != "rejected" {
		t.Fatalf("rejection: %+v %v", out, err)
	}
	env.AssertNotCalled(t, "ExecuteAction", mock.Anything, mock.Anything)
}

func TestActionDeniedByPolicy(t *testing.T) {
	env := newActionEnv(t)
	env.OnActivity(acts.DecideAction, mock.Anything, "a5").Return(activities.ActionPlan{Outcome: activities.OutcomeDeny, RuleName: "no-isolation"}, nil).Once()
	env.ExecuteWorkflow(workflows.Action, workflows.ActionInput{ActionID: "a5"})
	var out workflows.ActionOutcome
	if err := env.GetWorkflowResult(&out); err != nil || out.Status != "rejected" {
		t.Fatalf("deny: %+v %v", out, err)
	}
}

func TestActionParksWhileKillSwitchIsActive(t *testing.T) {
	env := newActionEnv(t)
	env.OnActivity(acts.DecideAction, mock.Anything, "a6").Return(approvalPlan(time.Hour), nil).Once()
	env.OnActivity(acts.NotifyApprovers, mock.Anything, "a6").Return(nil)
	env.OnActivity(acts.ReadActionDecision, mock.Anything, "a6").Return(storedApproval, nil).Once()
	halted := temporal.NewNonRetryableApplicationError("kill switch active", activities.ErrTypeKillSwitch, nil)
	env.OnActivity(acts.ExecuteAction, mock.Anything, "a6").Return(activities.ExecutionResult{}, halted).Once()
	env.OnActivity(acts.ExecuteAction, mock.Anything, "a6").Return(okResult, nil).Once()
	env.OnActivity(acts.RecordActionResult, mock.Anything, "a6", okResult).Return(nil).Once()
	var parked string
	env.OnSignalExternalWorkflow(mock.Anything, workflows.KillSwitchWorkflowID, "", workflows.SignalPark, mock.Anything).
		Run(func(args mock.Arguments) { parked = args.Get(4).(string) }).Return(nil).Once()
	env.RegisterDelayedCallback(func() {
		env.SignalWorkflow(workflows.SignalApprove, workflows.ApproveSignal{By: "sam"})
	}, time.Minute)
	var stage string
	env.RegisterDelayedCallback(func() {
		v, _ := env.QueryWorkflow(workflows.QueryActionStage)
		_ = v.Get(&stage)
		env.SignalWorkflow(workflows.SignalResume, nil)
	}, time.Minute+30*time.Second)
	env.ExecuteWorkflow(workflows.Action, workflows.ActionInput{ActionID: "a6"})
	var out workflows.ActionOutcome
	if err := env.GetWorkflowResult(&out); err != nil || out.Status != "completed" {
		t.Fatalf("after resume: %+v %v", out, err)
	}
	if parked == "" || stage != workflows.StageParked {
		t.Fatalf("did not park: parked=%q stage=%q", parked, stage)
	}
	env.AssertExpectations(t)
}

func TestActionRetriesTransientConnectorErrors(t *testing.T) {
	env := newActionEnv(t)
	env.OnActivity(acts.DecideAction, mock.Anything, "a7").Return(activities.ActionPlan{Outcome: activities.OutcomeAutoApprove}, nil)
	env.OnActivity(acts.ExecuteAction, mock.Anything, "a7").Return(activities.ExecutionResult{}, errors.New("gateway timeout")).Times(2)
	env.OnActivity(acts.ExecuteAction, mock.Anything, "a7").Return(okResult, nil).Once()
	env.OnActivity(acts.RecordActionResult, mock.Anything, "a7", okResult).Return(nil).Once()
	env.ExecuteWorkflow(workflows.Action, workflows.ActionInput{ActionID: "a7"})
	var out workflows.ActionOutcome
	if err := env.GetWorkflowResult(&out); err != nil || out.Status != "completed" {
		t.Fatalf("retries: %+v %v", out, err)
	}
	env.AssertExpectations(t)
}

func TestActionFailsOnPermanentConnectorError(t *testing.T) {
	env := newActionEnv(t)
	env.OnActivity(acts.DecideAction, mock.Anything, "a8").Return(activities.ActionPlan{Outcome: activities.OutcomeAutoApprove}, nil)
	perm := temporal.NewNonRetryableApplicationError("message m1 is not quarantined", activities.ErrTypePermanent, nil)
	env.OnActivity(acts.ExecuteAction, mock.Anything, "a8").Return(activities.ExecutionResult{}, perm).Once()
	env.OnActivity(acts.FailAction, mock.Anything, "a8", mock.Anything).Return(nil).Once()
	env.ExecuteWorkflow(workflows.Action, workflows.ActionInput{ActionID: "a8"})
	var out workflows.ActionOutcome
	if err := env.GetWorkflowResult(&out); err != nil || out.Status != "failed" {
		t.Fatalf("permanent error: %+v %v", out, err)
	}
	env.AssertExpectations(t)
}
