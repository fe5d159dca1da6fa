package dispatch

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/api/serviceerror"
	"go.temporal.io/sdk/client"

	"github.com/vigil-soc/vigil/notify"
	"github.com/vigil-soc/vigil/store"
	"github.com/vigil-soc/vigil/workflows"
)

// relayBatch is how many outbox events one pass routes.
const relayBatch = 100

// Relay moves notification events from the outbox to the channels' delivery
// workflows, in order: for each event it records one delivery per
// matching channel (or a suppressed one inside the dedup window), hands it
// to the channel's workflow with signal-with-start, and only then marks
// the event routed. Every step is idempotent, so a crash anywhere repeats
// work without duplicating a delivery.
type Relay struct {
	Store    *store.Store
	Temporal client.Client
	Log      *slog.Logger
	// OnIncidentCreated, when set, runs for every incident_created event
	// before it is marked routed (it starts the triggered hunts); it must
	// be idempotent, since an error makes the relay try the event again.
	OnIncidentCreated func(ctx context.Context, ev *store.NotificationEvent) error
}

// NewRelay builds a relay.
func NewRelay(st *store.Store, tc client.Client, log *slog.Logger) *Relay {
	return &Relay{Store: st, Temporal: tc, Log: log}
}

// Run routes events until ctx ends, looking at the outbox every
// pollInterval, and now and then hands pending deliveries again to
// channels whose workflow no longer runs.
func (r *Relay) Run(ctx context.Context) {
	delay := pollInterval
	sweep := time.NewTicker(resumeSweepInterval)
	defer sweep.Stop()
	for {
		n, err := r.Step(ctx)
		switch {
		case err != nil:
			if ctx.Err() != nil {
				return
			}
			r.Log.Warn("notification relay will retry", "in", delay, "err", err)
			delay = min(delay*2, retryMax)
		case n > 0:
			delay = pollInterval
			continue
		default:
			delay = pollInterval
		}
		select {
		case <-ctx.Done():
			return
		case <-sweep.C:
			if err := r.Resume(ctx, time.Now().Add(-resumeAge)); err != nil {
				r.Log.Warn("resume pending notifications", "err", err)
			}
		case <-time.After(delay):
		}
	}
}

// Resume tuning: a delivery pending longer than resumeAge whose channel
// workflow is not running (an operator terminated it) is handed again.
const (
	resumeSweepInterval = time.Minute
	resumeAge           = 5 * time.Minute
)

// Resume hands pending deliveries created before cutoff again, in order,
// to every channel whose workflow is not running. A delivery that ended
// meanwhile is skipped by the workflow, so handing one twice is harmless.
func (r *Relay) Resume(ctx context.Context, cutoff time.Time) error {
	stale, err := r.Store.StalePending(ctx, cutoff, 1000)
	if err != nil {
		return err
	}
	for channelID, ids := range stale {
		desc, err := r.Temporal.DescribeWorkflowExecution(ctx, workflows.NotifyWorkflowID(channelID), "")
		var nf *serviceerror.NotFound
		switch {
		case errors.As(err, &nf):
		case err != nil:
			return err
		case desc.WorkflowExecutionInfo.GetStatus() == enumspb.WORKFLOW_EXECUTION_STATUS_RUNNING:
			continue
		}
		r.Log.Warn("channel workflow not running; handing its pending deliveries again", "channel_id", channelID, "pending", len(ids))
		for _, id := range ids {
			if err := r.Hand(ctx, channelID, id); err != nil {
				return err
			}
		}
	}
	return nil
}

// Step routes one batch of queued events and reports how many it routed.
func (r *Relay) Step(ctx context.Context) (int, error) {
	events, err := r.Store.QueuedEvents(ctx, relayBatch)
	if err != nil || len(events) == 0 {
		return 0, err
	}
	channels, err := r.Store.ListChannels(ctx, true)
	if err != nil {
		return 0, err
	}
	for i := range events {
		ev := &events[i]
		if ev.EventType == string(store.EventIncidentCreated) && r.OnIncidentCreated != nil {
			if err := r.OnIncidentCreated(ctx, ev); err != nil {
				return i, err
			}
		}
		for j := range channels {
			ch := &channels[j]
			if !notify.Matches(ch, ev) {
				continue
			}
			d, err := r.Store.AddDelivery(ctx, ev, ch.ID, time.Duration(ch.DedupWindowSecs)*time.Second)
			if err != nil {
				return i, err
			}
			if d.Status != store.DeliveryPending {
				continue
			}
			if err := r.Hand(ctx, ch.ID, d.ID); err != nil {
				return i, err
			}
		}
		if err := r.Store.MarkEventRouted(ctx, ev.Seq); err != nil {
			return i, err
		}
	}
	return len(events), nil
}

// Hand gives a delivery to its channel's workflow, starting it if needed.
func (r *Relay) Hand(ctx context.Context, channelID, deliveryID string) error {
	_, err := r.Temporal.SignalWithStartWorkflow(ctx, workflows.NotifyWorkflowID(channelID), workflows.SignalNotify, deliveryID,
		client.StartWorkflowOptions{ID: workflows.NotifyWorkflowID(channelID), TaskQueue: workflows.TaskQueue,
			StaticSummary: "Notifications for channel " + channelID},
		workflows.NotifyChannel, workflows.NotifyInput{ChannelID: channelID})
	if err != nil {
		return fmt.Errorf("%w: hand delivery to channel workflow: %v", ErrEngineUnavailable, err)
	}
	return nil
}
