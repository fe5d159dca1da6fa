package workflows

import (
	"slices"
	"time"

	"go.temporal.io/sdk/workflow"

	"github.com/vigil-soc/vigil/activities"
	"github.com/vigil-soc/vigil/runview"
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

// changeKillSwitchFromStore names the change after which the kill switch
// takes its state from the store and never from a signal's payload.
const changeKillSwitchFromStore = "kill-switch-from-store"

// KillSwitch is the singleton that wakes parked Action workflows when the
// global halt is lifted. The store holds the state (the API writes it and
// connector activities check it); a signal only wakes this workflow, which
// then reads the store and, on deactivation, wakes every parked workflow.
func KillSwitch(ctx workflow.Context, state KillSwitchState) error {
	if err := workflow.SetQueryHandler(ctx, QueryKillSwitch, func() (KillSwitchState, error) { return state, nil }); err != nil {
		return err
	}
	ctx = workflow.WithLocalActivityOptions(ctx, workflow.LocalActivityOptions{StartToCloseTimeout: 10 * time.Second})
	changes := workflow.GetSignalChannel(ctx, SignalKillSwitchSet)
	parks := workflow.GetSignalChannel(ctx, SignalPark)
	handled := 0
	// Runs recorded before the store became the only source keep their
	// original path (whose store write is now a no-op).
	fromStore := workflow.GetVersion(ctx, changeKillSwitchFromStore, workflow.DefaultVersion, 1) == 1
	view := fromStore && operatorView(ctx)
	show := func() {
		if view {
			workflow.SetCurrentDetails(ctx, runview.KillSwitchState(state.Active, state.Reason, state.ChangedBy, len(state.Parked)))
		}
	}
	if view {
		ctx = summarisedLocal(ctx, true, "read the kill switch")
	}
	if fromStore {
		refreshFromStore(ctx, &state)
	}
	show()
	onChange := func(c KillSwitchChange) {
		if fromStore {
			refreshFromStore(ctx, &state)
			if c.Active != state.Active {
				workflow.GetLogger(ctx).Warn("suspicious: kill switch signal disagrees with the store; the store stands",
					"signal", SignalKillSwitchSet, "signal_active", c.Active, "store_active", state.Active)
			}
			return
		}
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
		if fromStore {
			refreshFromStore(ctx, &state)
		}
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
		show()
	})
	sel.AddReceive(parks, func(c workflow.ReceiveChannel, _ bool) {
		var id string
		c.Receive(ctx, &id)
		onPark(id)
		show()
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

// refreshFromStore reads the kill switch from the store into state and,
// when it is off, wakes every parked workflow. A failed read keeps the
// state as it was; parked workflows look again at their recheck interval.
func refreshFromStore(ctx workflow.Context, state *KillSwitchState) {
	var ks activities.KillSwitchMirror
	if err := workflow.ExecuteLocalActivity(ctx, activityRef.ReadKillSwitch).Get(ctx, &ks); err != nil {
		workflow.GetLogger(ctx).Error("kill switch not read from the store", "error", err)
		return
	}
	state.Active, state.Reason, state.ChangedBy, state.ChangedAt = ks.Active, ks.Reason, ks.By, ks.At
	if !state.Active && len(state.Parked) > 0 {
		resumeAll(ctx, state.Parked)
		state.Parked = nil
	}
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
