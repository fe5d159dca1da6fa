package workflows_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/mock"
	"go.temporal.io/sdk/testsuite"

	"github.com/vigil-soc/vigil/activities"
	"github.com/vigil-soc/vigil/workflows"
)

func TestKillSwitchResumesParkedActionsOnDeactivation(t *testing.T) {
	var s testsuite.WorkflowTestSuite
	env := s.NewTestWorkflowEnvironment()
	env.RegisterActivity(acts)
	var mirrored []bool
	env.OnActivity(acts.MirrorKillSwitch, mock.Anything, mock.Anything).
		Run(func(args mock.Arguments) {
			mirrored = append(mirrored, args.Get(1).(activities.KillSwitchMirror).Active)
		}).Return(nil)
	var resumed []string
	env.OnSignalExternalWorkflow(mock.Anything, mock.Anything, "", workflows.SignalResume, mock.Anything).
		Run(func(args mock.Arguments) { resumed = append(resumed, args.String(1)) }).Return(nil)

	env.RegisterDelayedCallback(func() {
		env.SignalWorkflow(workflows.SignalKillSwitchSet, workflows.KillSwitchChange{Active: true, Reason: "breach", By: "max"})
	}, time.Second)
	env.RegisterDelayedCallback(func() {
		env.SignalWorkflow(workflows.SignalPark, "action/1")
		env.SignalWorkflow(workflows.SignalPark, "action/2")
		env.SignalWorkflow(workflows.SignalPark, "action/1")
	}, 2*time.Second)
	var during workflows.KillSwitchState
	env.RegisterDelayedCallback(func() {
		v, err := env.QueryWorkflow(workflows.QueryKillSwitch)
		if err == nil {
			_ = v.Get(&during)
		}
		env.SignalWorkflow(workflows.SignalKillSwitchSet, workflows.KillSwitchChange{Active: false, By: "max"})
	}, 3*time.Second)
	env.RegisterDelayedCallback(func() {
		// Parking after deactivation is answered at once.
		env.SignalWorkflow(workflows.SignalPark, "action/3")
	}, 4*time.Second)
	env.RegisterDelayedCallback(env.CancelWorkflow, 5*time.Second)
	env.ExecuteWorkflow(workflows.KillSwitch, workflows.KillSwitchState{})

	if !during.Active || during.Reason != "breach" || len(during.Parked) != 2 {
		t.Fatalf("state while active: %+v", during)
	}
	if len(mirrored) != 2 || !mirrored[0] || mirrored[1] {
		t.Fatalf("mirrored %v, want [true false]", mirrored)
	}
	if len(resumed) != 3 || resumed[2] != "action/3" {
		t.Fatalf("resumed %v, want action/1, action/2, then action/3", resumed)
	}
}
