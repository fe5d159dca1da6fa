package huntflow

import (
	"context"
	"errors"
	"fmt"
	"time"

	"go.temporal.io/api/serviceerror"
	"go.temporal.io/sdk/client"
)

// ErrNoSchedule is returned when a hunt owns no Temporal Schedule.
var ErrNoSchedule = errors.New("the hunt has no schedule")

// ErrTriggerPending means the schedule took the trigger but has not yet
// reported the run it started.
var ErrTriggerPending = errors.New("the schedule has not reported the triggered run yet; see its recent actions")

// ScheduleBusyError refuses a trigger while a run of the schedule is still
// running: the schedule's overlap policy (skip) would drop it silently.
type ScheduleBusyError struct {
	// WorkflowID is the run still running.
	WorkflowID string
}

func (e *ScheduleBusyError) Error() string {
	return "a run of the schedule is still running: " + e.WorkflowID
}

// triggerPoll is how often the schedule is read while its triggered
// action has not yet shown up.
const triggerPoll = 100 * time.Millisecond

// TriggerSchedule asks the hunt's schedule to take its action now, as the
// Temporal UI's trigger button does: the run gets the schedule's workflow
// ID, trigger and window, and shows among the schedule's recent actions.
// It answers the workflow ID of the run it started, once the schedule
// reports it (ctx bounds the wait).
func TriggerSchedule(ctx context.Context, c client.Client, huntID string) (string, error) {
	h := c.ScheduleClient().GetHandle(ctx, ScheduleID(huntID))
	d, err := h.Describe(ctx)
	var nf *serviceerror.NotFound
	if errors.As(err, &nf) {
		return "", ErrNoSchedule
	}
	if err != nil {
		return "", err
	}
	if r := d.Info.RunningWorkflows; len(r) > 0 {
		return "", &ScheduleBusyError{WorkflowID: r[0].WorkflowID}
	}
	before := map[string]bool{}
	var last time.Time
	for _, a := range d.Info.RecentActions {
		if a.StartWorkflowResult != nil {
			before[a.StartWorkflowResult.WorkflowID] = true
		}
		if a.ScheduleTime.After(last) {
			last = a.ScheduleTime
		}
	}
	// A run's workflow ID ends with its nominal time in whole seconds, so
	// a trigger in the same second as the last run would name that run
	// again and start nothing: wait for the next second.
	if wait := time.Until(last.Truncate(time.Second).Add(time.Second)); wait > 0 {
		select {
		case <-ctx.Done():
			return "", ctx.Err()
		case <-time.After(wait):
		}
	}
	if err := h.Trigger(ctx, client.ScheduleTriggerOptions{}); err != nil {
		return "", err
	}
	t := time.NewTicker(triggerPoll)
	defer t.Stop()
	for {
		d, err := h.Describe(ctx)
		if err != nil {
			return "", err
		}
		for _, a := range d.Info.RecentActions {
			if a.StartWorkflowResult != nil && !before[a.StartWorkflowResult.WorkflowID] {
				return a.StartWorkflowResult.WorkflowID, nil
			}
		}
		select {
		case <-ctx.Done():
			return "", fmt.Errorf("%w: %v", ErrTriggerPending, ctx.Err())
		case <-t.C:
		}
	}
}
