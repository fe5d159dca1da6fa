package dispatch

import (
	"context"
	"fmt"
	"log/slog"
	"time"

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
	wake     chan struct{}
}

// NewRelay builds a relay.
func NewRelay(st *store.Store, tc client.Client, log *slog.Logger) *Relay {
	return &Relay{Store: st, Temporal: tc, Log: log, wake: make(chan struct{}, 1)}
}

// Wake asks the relay to look at the outbox now.
func (r *Relay) Wake() {
	select {
	case r.wake <- struct{}{}:
	default:
	}
}

// Run routes events until ctx ends.
func (r *Relay) Run(ctx context.Context) {
	delay := pollInterval
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
		case <-r.wake:
		case <-time.After(delay):
		}
	}
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
