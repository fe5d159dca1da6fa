package workflows

import (
	"go.temporal.io/sdk/workflow"

	"github.com/vigil-soc/vigil/activities"
	"github.com/vigil-soc/vigil/playbook"
	"github.com/vigil-soc/vigil/runview"
)

// stepLabel names a begun step in a playbook run's current details.
type stepLabel struct {
	n, total int
	name     string
}

// String renders the label with what the step waits for, if anything.
func (l stepLabel) String(state string) string { return runview.Step(l.n, l.total, l.name, state) }

// labelOf labels the step begun last: an action step by its action type,
// any other by its name.
func (r *playbookRun) labelOf(step playbook.Step) stepLabel {
	name := step.Name
	if step.Kind() == playbook.KindAction {
		name = step.Action
	}
	total := r.in.Definition.StepCount()
	return stepLabel{n: min(r.begun, total), total: total, name: name}
}

// show sets the run's current details when it describes itself.
func (r *playbookRun) show(ctx workflow.Context, details string) {
	if r.view {
		workflow.SetCurrentDetails(ctx, details)
	}
}

// followChildren shows what the run's child actions wait for, as they
// report it with SignalActionStage. Only children this run started count;
// the signal changes nothing but the details shown.
func (r *playbookRun) followChildren(ctx workflow.Context) {
	r.children = map[string]stepLabel{}
	ch := workflow.GetSignalChannel(ctx, SignalActionStage)
	workflow.Go(ctx, func(ctx workflow.Context) {
		for {
			var s ActionStage
			ch.Receive(ctx, &s)
			label, ok := r.children[s.ActionID]
			if !ok {
				workflow.GetLogger(ctx).Warn("action stage from an unknown action; ignored", "action_id", s.ActionID)
				continue
			}
			switch s.Status {
			case ActionStatusPendingApproval:
				r.show(ctx, label.String("waiting for "+s.ApprovalLevel+" approval"))
			default:
				r.show(ctx, label.String(s.Status))
			}
		}
	})
}

// killSwitch reads whether automation is halted and, for a run that
// describes itself, why.
func (r *playbookRun) killSwitch(ctx workflow.Context) (halted bool, reason string, err error) {
	if !r.view {
		err = workflow.ExecuteLocalActivity(ctx, activityRef.KillSwitchActive).Get(ctx, &halted)
		return halted, "", err
	}
	var ks activities.KillSwitchMirror
	err = workflow.ExecuteLocalActivity(summarisedLocal(ctx, true, "kill switch check"), activityRef.ReadKillSwitch).Get(ctx, &ks)
	return ks.Active, ks.Reason, err
}
