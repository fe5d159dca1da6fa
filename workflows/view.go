package workflows

import (
	"strings"
	"time"

	"go.temporal.io/sdk/workflow"
)

// changeOperatorView names the change after which runs describe
// themselves to the Temporal UI: summaries on activities, timers and child
// runs, current details while they wait, and (for actions) the
// ActionStatus and ApprovalLevel search attributes.
const changeOperatorView = "operator-view"

// operatorView reports whether this run describes itself; runs recorded
// before the change keep their original commands.
func operatorView(ctx workflow.Context) bool {
	return workflow.GetVersion(ctx, changeOperatorView, workflow.DefaultVersion, 1) == 1
}

// SignalActionStage is how an Action run started by a playbook run tells
// its parent what it waits for, so the parent's current details can say
// "step 4 of 9: isolate_host, waiting for senior approval". It carries an
// ActionStage and changes nothing but what the parent displays.
const SignalActionStage = "action-stage"

// ActionStage is the payload of SignalActionStage.
type ActionStage struct {
	ActionID      string
	Status        string // an ActionStatus* value
	ApprovalLevel string
}

// summarised returns ctx with the summary set on its activity options
// when the run describes itself.
func summarised(ctx workflow.Context, on bool, summary string) workflow.Context {
	if !on {
		return ctx
	}
	o := workflow.GetActivityOptions(ctx)
	o.Summary = summary
	return workflow.WithActivityOptions(ctx, o)
}

// summarisedLocal is summarised for local activities.
func summarisedLocal(ctx workflow.Context, on bool, summary string) workflow.Context {
	if !on {
		return ctx
	}
	o := workflow.GetLocalActivityOptions(ctx)
	o.Summary = summary
	return workflow.WithLocalActivityOptions(ctx, o)
}

// newTimer starts a timer, named in the UI when the run describes itself.
func newTimer(ctx workflow.Context, on bool, d time.Duration, summary string) workflow.Future {
	if !on {
		return workflow.NewTimer(ctx, d)
	}
	return workflow.NewTimerWithOptions(ctx, d, workflow.TimerOptions{Summary: summary})
}

// failureCause is the kind of failure a reason names ("approval expired",
// "execution failed"), without the text after it, which may quote a
// connector's reply.
func failureCause(reason string) string {
	cause, _, _ := strings.Cut(reason, ":")
	return cause
}
