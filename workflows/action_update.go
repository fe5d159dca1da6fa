package workflows

import (
	"fmt"
	"time"

	"go.temporal.io/sdk/workflow"

	"github.com/vigil-soc/vigil/activities"
)

// changeUpdateDecisions names the change after which the API wakes a
// waiting Action run with the UpdateDecide workflow update, and waits for
// its result, instead of sending approve and reject signals.
const changeUpdateDecisions = "update-decisions"

// UpdateDecide wakes an Action run to act on the decision the store
// records. It carries a DecideRequest, which holds no decision: the run
// reads the store, so a raw update has no more authority than a raw
// signal.
const UpdateDecide = "decide"

// decisionRecheck bounds how long a waiting run goes without reading the
// store, in case a wake-up was lost (the Temporal server restarted while
// an update waited for a worker).
const decisionRecheck = 10 * time.Minute

// DecideRequest is the argument of UpdateDecide. It is empty on purpose.
type DecideRequest struct{}

// DecideResult is what an UpdateDecide answers once the run has acted on
// the stored decision: the run ended (Status is completed, failed or
// rejected), parked by the kill switch, or still awaits approval because
// the store records no decision.
type DecideResult struct {
	Stage  string
	Status string
}

// decideState is what the UpdateDecide handler shares with the run.
type decideState struct {
	wakes    workflow.Channel
	asked    int            // updates accepted so far
	answered int            // updates whose wake-up a store read covered
	outcome  *ActionOutcome // set when the run ends
}

// registerDecide installs the UpdateDecide handler. The validator cannot
// read the store, so it only refuses what the run's own state rules out:
// a decision after the run has moved past waiting for one.
func (r *actionRun) registerDecide(ctx workflow.Context) error {
	r.decide = &decideState{wakes: workflow.NewBufferedChannel(ctx, 1)}
	d := r.decide
	return workflow.SetUpdateHandlerWithOptions(ctx, UpdateDecide,
		func(ctx workflow.Context, _ DecideRequest) (DecideResult, error) {
			d.asked++
			n := d.asked
			// A wake-up already queued reads the store for this one too.
			d.wakes.SendAsync(n)
			err := workflow.Await(ctx, func() bool {
				return d.outcome != nil || r.stage == StageParked || d.answered >= n
			})
			if d.outcome != nil {
				return DecideResult{Stage: StageDone, Status: d.outcome.Status}, err
			}
			return DecideResult{Stage: r.stage}, err
		},
		workflow.UpdateHandlerOptions{Validator: func(ctx workflow.Context, _ DecideRequest) error {
			if r.stage != StageDeciding && r.stage != StageAwaitingApproval {
				return fmt.Errorf("action %s is %s, not awaiting a decision", r.in.ActionID, r.stage)
			}
			return nil
		}})
}

// finish hands the run's outcome to waiting UpdateDecide callers and lets
// their handlers answer before the run completes.
func (r *actionRun) finish(ctx workflow.Context, out ActionOutcome, err error) (ActionOutcome, error) {
	if r.decide == nil || err != nil {
		return out, err
	}
	r.decide.outcome = &out
	if werr := workflow.Await(ctx, func() bool { return workflow.AllHandlersFinished(ctx) }); werr != nil {
		return out, werr
	}
	return out, nil
}

// addWakes adds UpdateDecide wake-ups to the waiting run's selector, and
// a recheck of the store every decisionRecheck in case one was lost.
func (d *decideState) addWakes(ctx workflow.Context, sel workflow.Selector, view bool, woke *string) {
	sel.AddReceive(d.wakes, func(c workflow.ReceiveChannel, _ bool) {
		c.Receive(ctx, nil)
		*woke = UpdateDecide
	})
	var recheck func()
	recheck = func() {
		sel.AddFuture(newTimer(ctx, view, decisionRecheck, "decision recheck"), func(workflow.Future) {
			*woke = "recheck"
			recheck()
		})
	}
	recheck()
}

// callConnector runs the claimed connector call. Runs woken by
// UpdateDecide run it as a local activity, in the workflow task that read
// the decision, and record the result the same way: the claim, the
// connector's idempotency on the action id and the retry policy are those
// of the regular activity, and the decide update answers without a round
// trip through the task queue per step. Connector calls are short (the
// connectors bound them well under a minute), which local activities need.
func (r *actionRun) callConnector(ctx workflow.Context, res *activities.ExecutionResult) error {
	if r.decide == nil {
		return workflow.ExecuteActivity(summarised(ctx, r.view, r.plan.ConnectorCall), activityRef.ExecuteAction, r.in.ActionID).Get(ctx, res)
	}
	return workflow.ExecuteLocalActivity(localLike(ctx, r.view, r.plan.ConnectorCall), activityRef.ExecuteAction, r.in.ActionID).Get(ctx, res)
}

// recordResult stores a finished execution, in a local activity for runs
// woken by UpdateDecide (see callConnector).
func (r *actionRun) recordResult(ctx workflow.Context, res activities.ExecutionResult) error {
	if r.decide == nil {
		return workflow.ExecuteActivity(summarised(ctx, r.view, "record result"), activityRef.RecordActionResult, r.in.ActionID, res).Get(ctx, nil)
	}
	return workflow.ExecuteLocalActivity(localLike(ctx, r.view, "record result"), activityRef.RecordActionResult, r.in.ActionID, res).Get(ctx, nil)
}

// localLike gives a local activity the timeout and retry policy of the
// run's regular activities.
func localLike(ctx workflow.Context, view bool, summary string) workflow.Context {
	o := workflow.GetActivityOptions(ctx)
	return summarisedLocal(workflow.WithLocalActivityOptions(ctx, workflow.LocalActivityOptions{
		StartToCloseTimeout: o.StartToCloseTimeout, RetryPolicy: o.RetryPolicy}), view, summary)
}
