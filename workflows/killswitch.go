package workflows

import (
	"slices"
	"time"

	"go.temporal.io/sdk/workflow"

	"github.com/vigil-soc/vigil/activities"
)

// KillSwitchChange activates or deactivates the kill switch.
type KillSwitchChange struct {
	Active bool
	Reason string
	By     string
	At     time.Time
}

// KillSwitchState is the kill switch as its workflow holds it.
type KillSwitchState struct {
	Active    bool
	Reason    string
	ChangedBy string
	ChangedAt time.Time
	// Parked lists Action workflows waiting for deactivation.
	Parked []string
}

// killSwitchSignalsPerRun bounds the history of one run; the state then
// carries over to a fresh run.
const killSwitchSignalsPerRun = 500

// KillSwitch is the singleton that holds the global halt. It mirrors every
// change to the store (where connector activities check it) and, on
// deactivation, wakes every parked Action workflow.
func KillSwitch(ctx workflow.Context, state KillSwitchState) error {
	if err := workflow.SetQueryHandler(ctx, QueryKillSwitch, func() (KillSwitchState, error) { return state, nil }); err != nil {
		return err
	}
	ctx = workflow.WithLocalActivityOptions(ctx, workflow.LocalActivityOptions{StartToCloseTimeout: 10 * time.Second})
	changes := workflow.GetSignalChannel(ctx, SignalKillSwitchSet)
	parks := workflow.GetSignalChannel(ctx, SignalPark)
	handled := 0
	onChange := func(c KillSwitchChange) {
		state.Active, state.Reason, state.ChangedBy, state.ChangedAt = c.Active, c.Reason, c.By, c.At
		mirror := activities.KillSwitchMirror{Active: c.Active, Reason: c.Reason, By: c.By, At: c.At}
		if err := workflow.ExecuteLocalActivity(ctx, activityRef.MirrorKillSwitch, mirror).Get(ctx, nil); err != nil {
			workflow.GetLogger(ctx).Error("kill switch not mirrored to the store", "error", err)
		}
		if !state.Active {
			resumeAll(ctx, state.Parked)
			state.Parked = nil
		}
	}
	onPark := func(id string) {
		if !state.Active {
			resumeAll(ctx, []string{id})
			return
		}
		if !slices.Contains(state.Parked, id) {
			state.Parked = append(state.Parked, id)
		}
	}
	sel := workflow.NewSelector(ctx)
	sel.AddReceive(changes, func(c workflow.ReceiveChannel, _ bool) {
		var ch KillSwitchChange
		c.Receive(ctx, &ch)
		onChange(ch)
	})
	sel.AddReceive(parks, func(c workflow.ReceiveChannel, _ bool) {
		var id string
		c.Receive(ctx, &id)
		onPark(id)
	})
	for handled < killSwitchSignalsPerRun {
		sel.Select(ctx)
		handled++
	}
	// Take whatever arrived meanwhile before handing the state on.
	for {
		var ch KillSwitchChange
		if !changes.ReceiveAsync(&ch) {
			break
		}
		onChange(ch)
	}
	for {
		var id string
		if !parks.ReceiveAsync(&id) {
			break
		}
		onPark(id)
	}
	return workflow.NewContinueAsNewError(ctx, KillSwitch, state)
}

// resumeAll signals each parked workflow; one that has meanwhile ended is
// simply skipped.
func resumeAll(ctx workflow.Context, ids []string) {
	futures := make([]workflow.Future, 0, len(ids))
	for _, id := range ids {
		futures = append(futures, workflow.SignalExternalWorkflow(ctx, id, "", SignalResume, nil))
	}
	for i, f := range futures {
		if err := f.Get(ctx, nil); err != nil {
			workflow.GetLogger(ctx).Info("parked workflow not resumed", "workflow_id", ids[i], "error", err)
		}
	}
}
