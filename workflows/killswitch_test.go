package workflows_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/mock"
	"go.temporal.io/sdk/testsuite"

	"github.com/vigil-soc/vigil/activities"
	"github.com/vigil-soc/vigil/workflows"
)

// TestKillSwitchFollowsTheStore: the kill switch takes its state from the
// store whenever a signal wakes it; a signal whose payload disagrees with
// the store changes nothing, and deactivation in the store wakes every
// parked workflow.
func TestKillSwitchFollowsTheStore(t *testing.T) {
	var s testsuite.WorkflowTestSuite
	env := s.NewTestWorkflowEnvironment()
	env.RegisterActivity(acts)
	stored := activities.KillSwitchMirror{}
	env.OnActivity(acts.ReadKillSwitch, mock.Anything).Return(func(context.Context) (activities.KillSwitchMirror, error) {
		return stored, nil
	})
	var resumed []string
	env.OnSignalExternalWorkflow(mock.Anything, mock.Anything, "", workflows.SignalResume, mock.Anything).
		Run(func(args mock.Arguments) { resumed = append(resumed, args.String(1)) }).Return(nil)

	query := func(into *workflows.KillSwitchState) {
		if v, err := env.QueryWorkflow(workflows.QueryKillSwitch); err == nil {
			_ = v.Get(into)
		}
	}
	env.RegisterDelayedCallback(func() {
		stored = activities.KillSwitchMirror{Active: true, Reason: "breach", By: "max"}
		env.SignalWorkflow(workflows.SignalKillSwitchSet, workflows.KillSwitchChange{Active: true})
	}, time.Second)
	env.RegisterDelayedCallback(func() {
		env.SignalWorkflow(workflows.SignalPark, "action/1")
		env.SignalWorkflow(workflows.SignalPark, "action/2")
		env.SignalWorkflow(workflows.SignalPark, "action/1")
	}, 2*time.Second)
	var afterForgery workflows.KillSwitchState
	env.RegisterDelayedCallback(func() {
		// A raw signal claiming deactivation while the store says active.
		env.SignalWorkflow(workflows.SignalKillSwitchSet, workflows.KillSwitchChange{Active: false, By: "mallory"})
	}, 3*time.Second)
	env.RegisterDelayedCallback(func() { query(&afterForgery) }, 3500*time.Millisecond)
	env.RegisterDelayedCallback(func() {
		stored = activities.KillSwitchMirror{Active: false, By: "max"}
		env.SignalWorkflow(workflows.SignalKillSwitchSet, workflows.KillSwitchChange{})
	}, 4*time.Second)
	env.RegisterDelayedCallback(func() {
		// Parking after deactivation is answered at once.
		env.SignalWorkflow(workflows.SignalPark, "action/3")
	}, 5*time.Second)
	env.RegisterDelayedCallback(env.CancelWorkflow, 6*time.Second)
	env.ExecuteWorkflow(workflows.KillSwitch, workflows.KillSwitchState{})

	if !afterForgery.Active || afterForgery.Reason != "breach" || len(afterForgery.Parked) != 2 {
		t.Fatalf("state after a forged deactivation signal: %+v", afterForgery)
	}
	if len(resumed) != 3 || resumed[2] != "action/3" {
		t.Fatalf("resumed %v, want action/1, action/2, then action/3", resumed)
	}
	env.AssertNotCalled(t, "MirrorKillSwitch", mock.Anything, mock.Anything)
}
