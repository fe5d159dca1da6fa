package workflows

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"

	"github.com/vigil-soc/vigil/activities"
	"github.com/vigil-soc/vigil/playbook"
	"github.com/vigil-soc/vigil/runview"
)

// changePlaybookInline names the change after which a playbook run carries
// out its action steps itself, through the activities the Action workflow
// runs, instead of starting a child Action workflow per step; records its
// progress in batches; and continues as new when its history grows long.
const changePlaybookInline = "playbook-inline-steps"

// progressEvery is how many finished steps an inline run lets pass between
// writes of its progress count; the end of the run always writes.
const progressEvery = 25

// stepsPerRun bounds the steps one run of a long playbook begins before it
// continues as new, which keeps its history (about five events a step)
// well under the server's limits and its recorded histories small.
const stepsPerRun = 100

// inlineActivityOptions are the Action workflow's retry rules, for the
// local activities an inline step runs. The claim in the store makes a
// repeated connector call (after a crash) find its earlier claim, and the
// connector deduplicates on the action id.
func inlineActivityOptions(ctx workflow.Context, view bool, summary string) workflow.Context {
	ctx = workflow.WithLocalActivityOptions(ctx, workflow.LocalActivityOptions{
		StartToCloseTimeout: time.Minute,
		RetryPolicy: &temporal.RetryPolicy{InitialInterval: time.Second, BackoffCoefficient: 2, MaximumInterval: time.Minute,
			MaximumAttempts: 20, NonRetryableErrorTypes: []string{activities.ErrTypeNotFound, activities.ErrTypeKillSwitch,
				activities.ErrTypePermanent, activities.ErrTypeNotOwner, activities.ErrTypeNotApproved, activities.ErrTypeRefused}},
	})
	return summarisedLocal(ctx, view, summary)
}

// runActionInline carries out an action step in the run itself: record the
// action as the run's own, decide it by policy, and, when policy lets it run
// without approval, claim and execute it and record the result. An action
// that needs approval is handed to its own Action workflow, which waits
// for approvers as any action does, and the step waits for that workflow.
func (r *playbookRun) runActionInline(ctx workflow.Context, step playbook.Step, params map[string]any) (map[string]any, error) {
	var ia activities.InlineAction
	err := workflow.ExecuteLocalActivity(inlineActivityOptions(ctx, r.view, "record action "+step.Action), activityRef.CreateInlinePlaybookAction,
		activities.PlaybookActionRequest{ExecutionID: r.in.ExecutionID, IncidentID: r.in.IncidentID, Step: step.Name,
			ActionType: step.Action, Parameters: params}).Get(ctx, &ia)
	if err != nil {
		return nil, err
	}
	id := ia.ActionID
	if !ia.RunOwns {
		// Handed over before this run continued: its workflow carries it.
		return r.runChildAction(ctx, step, ia.RecommendedAction, r.wakes)
	}
	wakes := r.wakes
	var plan activities.ActionPlan
	if err := workflow.ExecuteLocalActivity(inlineActivityOptions(ctx, r.view, "policy decision"), activityRef.DecideAction, id).Get(ctx, &plan); err != nil {
		return r.failInline(ctx, step, id, "policy evaluation failed: "+rootMessage(err))
	}
	switch plan.Outcome {
	case activities.OutcomeDeny:
		return actionStepOutput(id, ActionOutcome{Status: "rejected"}), fmt.Errorf("action %s ended rejected by policy", step.Action)
	case activities.OutcomeRequireApproval:
		if err := workflow.ExecuteLocalActivity(inlineActivityOptions(ctx, r.view, "hand over for approval"), activityRef.HandOverPlaybookAction, id).Get(ctx, nil); err != nil {
			return nil, err
		}
		r.save(ctx)
		return r.runChildAction(ctx, step, ia.RecommendedAction, wakes)
	}
	for {
		var res activities.ExecutionResult
		err := workflow.ExecuteLocalActivity(inlineActivityOptions(ctx, r.view, plan.ConnectorCall), activityRef.ExecuteAction, id).Get(ctx, &res)
		switch {
		case isErrType(err, activities.ErrTypeKillSwitch):
			r.status = "paused_by_kill_switch"
			_, reason, _ := strings.Cut(rootMessage(err), "kill switch active:")
			r.show(ctx, runview.Parked(reason))
			r.save(ctx)
			parkUntilResumed(ctx, r.view)
			r.status = "running"
			continue
		case isErrType(err, activities.ErrTypeNotOwner):
			// Not the run's own (any more): it may change nothing.
			return actionStepOutput(id, ActionOutcome{Status: "failed", Error: rootMessage(err)}), err
		case err != nil:
			return r.failInline(ctx, step, id, "execution failed: "+rootMessage(err))
		}
		if err := workflow.ExecuteLocalActivity(inlineActivityOptions(ctx, r.view, "record result"), activityRef.RecordActionResult, id, res).Get(ctx, nil); err != nil {
			return nil, err
		}
		return actionStepOutput(id, ActionOutcome{Status: "completed", Result: &res}), nil
	}
}

// failInline records why an inline action ended without running, as the
// Action workflow's fail does, and fails the step.
func (r *playbookRun) failInline(ctx workflow.Context, step playbook.Step, id, reason string) (map[string]any, error) {
	dctx, cancel := workflow.NewDisconnectedContext(ctx)
	defer cancel()
	if err := workflow.ExecuteLocalActivity(inlineActivityOptions(dctx, r.view, "record failure"), activityRef.FailAction, id, reason).Get(dctx, nil); err != nil {
		return nil, err
	}
	return actionStepOutput(id, ActionOutcome{Status: "failed", Error: reason}),
		fmt.Errorf("action %s ended failed: %s", step.Action, reason)
}

// actionStepOutput is what an action step stores as its output.
func actionStepOutput(actionID string, outcome ActionOutcome) map[string]any {
	out := map[string]any{"status": outcome.Status, "action_id": actionID, "success": false, "message": outcome.Error}
	if res := outcome.Result; res != nil {
		for k, v := range res.Output {
			out[k] = v
		}
		out["success"], out["message"] = res.Success, res.Message
	}
	return out
}

// forwardWakes passes approve and reject signals that reach the run on to
// the Action workflows it waits for. An approver who read an action while
// the run still owned it signals the run; the signal only wakes, and each
// Action workflow reads its own decision from the store.
func (r *playbookRun) forwardWakes(ctx workflow.Context) {
	r.waiting = map[string]workflow.ChildWorkflowFuture{}
	for _, name := range []string{SignalApprove, SignalReject} {
		ch := workflow.GetSignalChannel(ctx, name)
		workflow.Go(ctx, func(ctx workflow.Context) {
			for {
				var payload any
				ch.Receive(ctx, &payload)
				r.wakes++
				for _, id := range slices.Sorted(maps.Keys(r.waiting)) {
					r.wake(ctx, id, name, payload)
				}
			}
		})
	}
}

// wake signals one waiting child; a failure is logged, since the child
// also reads the store whenever any later signal wakes it.
func (r *playbookRun) wake(ctx workflow.Context, actionID, name string, payload any) {
	if err := r.waiting[actionID].SignalChildWorkflow(ctx, name, payload).Get(ctx, nil); err != nil {
		workflow.GetLogger(ctx).Info("wake not passed on", "action_id", actionID, "error", err)
	}
}

// resumeFrom restores a run that continued as new from the step records
// the store holds: the steps done, their outputs, and the index of the
// top-level step to run next.
func (r *playbookRun) resumeFrom(steps []activities.StepRecord) int {
	r.records = steps
	byName := map[string]playbook.Step{}
	var walk func([]playbook.Step)
	walk = func(ss []playbook.Step) {
		for _, s := range ss {
			byName[s.Name] = s
			for _, b := range s.Parallel {
				walk(b)
			}
		}
	}
	walk(r.in.Definition.Steps)
	top := map[string]int{}
	for i, s := range r.in.Definition.Steps {
		top[s.Name] = i
	}
	next := 0
	for _, rec := range steps {
		r.begun++
		if rec.Status == "completed" {
			r.completed++
		}
		if s, ok := byName[rec.Name]; ok && s.Output != "" && rec.Output != nil {
			r.env.Outputs[s.Output] = rec.Output
		}
		i, ok := top[rec.Name]
		if !ok {
			continue
		}
		next = i + 1
		if r.in.Definition.Steps[i].Kind() == playbook.KindCondition {
			result, _ := rec.Output["result"].(bool)
			next = r.in.Definition.NextIndex(i, result)
		}
	}
	return next
}

// continueAsNew stores the step records and hands the run on to a fresh
// one, which reads them back from the store; its input names only the
// execution, so nothing the run trusts travels outside the store.
func (r *playbookRun) continueAsNew(ctx workflow.Context) error {
	err := workflow.ExecuteLocalActivity(inlineActivityOptions(ctx, r.view, "checkpoint"), activityRef.CheckpointPlaybookExecution,
		activities.CheckpointRequest{ExecutionID: r.in.ExecutionID, Steps: r.records, Completed: r.completed}).Get(ctx, nil)
	if err != nil {
		return err
	}
	return workflow.NewContinueAsNewError(ctx, Playbook, PlaybookInput{ExecutionID: r.in.ExecutionID, Continued: true})
}
