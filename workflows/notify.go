package workflows

import (
	"time"

	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"

	"github.com/vigil-soc/vigil/activities"
	"github.com/vigil-soc/vigil/notify"
)

// NotifyWorkflowID is the ID of a channel's delivery workflow.
func NotifyWorkflowID(channelID string) string { return "notify/" + channelID }

// SignalNotify carries a delivery id to a channel's delivery workflow.
const SignalNotify = "deliver"

// Delivery pacing and retry.
const (
	notifyRetryBase = 2 * time.Second
	notifyRetryMax  = 5 * time.Minute
	// notifyIdle ends a workflow that has had nothing to send for a while;
	// the next event starts it again.
	notifyIdle = time.Hour
	// notifyBatch bounds the deliveries one run takes before it continues
	// as new, so its history stays short.
	notifyBatch = 200
)

// NotifyInput is a channel's delivery workflow state across runs.
type NotifyInput struct {
	ChannelID string
	// Queue holds delivery ids taken but not yet sent, in order.
	Queue []string
	// LastSent and Interval pace the channel at its vendor's rate.
	LastSent time.Time
	Interval time.Duration
}

// NotifyChannel is the entity workflow of one channel: it takes delivery
// ids by signal, sends them one by one in order at the channel's rate,
// retries with backoff (or the vendor's Retry-After) until the channel's
// give-up time, and continues as new as its history grows. Because one
// workflow owns a channel, the rate holds across every worker process.
func NotifyChannel(ctx workflow.Context, in NotifyInput) error {
	st := &notifier{in: in, sig: workflow.GetSignalChannel(ctx, SignalNotify)}
	ctx = workflow.WithActivityOptions(ctx, workflow.ActivityOptions{
		StartToCloseTimeout: time.Minute,
		RetryPolicy:         &temporal.RetryPolicy{InitialInterval: time.Second, MaximumInterval: 30 * time.Second},
	})
	for done := 0; ; done++ {
		st.drain()
		if len(st.in.Queue) == 0 {
			if !st.waitForWork(ctx) {
				return nil
			}
			continue
		}
		if done >= notifyBatch || workflow.GetInfo(ctx).GetContinueAsNewSuggested() {
			return workflow.NewContinueAsNewError(ctx, NotifyChannel, st.in)
		}
		id := st.in.Queue[0]
		if err := st.deliver(ctx, id); err != nil {
			return err
		}
		st.in.Queue = st.in.Queue[1:]
	}
}

type notifier struct {
	in  NotifyInput
	sig workflow.ReceiveChannel
}

// drain moves every buffered signal into the queue.
func (n *notifier) drain() {
	var id string
	for n.sig.ReceiveAsync(&id) {
		n.in.Queue = append(n.in.Queue, id)
	}
}

// waitForWork blocks until a delivery arrives (true) or the channel has
// been idle for notifyIdle (false).
func (n *notifier) waitForWork(ctx workflow.Context) bool {
	got := false
	timerCtx, cancel := workflow.WithCancel(ctx)
	defer cancel()
	sel := workflow.NewSelector(ctx)
	sel.AddReceive(n.sig, func(c workflow.ReceiveChannel, _ bool) {
		var id string
		c.Receive(ctx, &id)
		n.in.Queue = append(n.in.Queue, id)
		got = true
	})
	sel.AddFuture(workflow.NewTimer(timerCtx, notifyIdle), func(workflow.Future) {})
	sel.Select(ctx)
	return got
}

// deliver sends one delivery, pacing and retrying, until it has ended.
func (n *notifier) deliver(ctx workflow.Context, id string) error {
	var acts *activities.Activities
	for attempt := 0; ; attempt++ {
		if wait := n.in.LastSent.Add(n.in.Interval).Sub(workflow.Now(ctx)); wait > 0 {
			if err := workflow.Sleep(ctx, wait); err != nil {
				return err
			}
		}
		var out notify.Outcome
		err := workflow.ExecuteActivity(ctx, acts.DeliverNotification, activities.DeliverNotificationInput{DeliveryID: id}).Get(ctx, &out)
		if err != nil {
			return err
		}
		if out.Attempted {
			n.in.Interval, n.in.LastSent = out.Interval, workflow.Now(ctx)
		}
		if out.Done {
			return nil
		}
		backoff := min(notifyRetryBase<<min(attempt, 10), notifyRetryMax)
		backoff = max(backoff, out.RetryAfter)
		if workflow.Now(ctx).Add(backoff).After(out.GiveUpAt) {
			return workflow.ExecuteActivity(ctx, acts.GiveUpNotification,
				activities.GiveUpNotificationInput{DeliveryID: id, LastError: out.Error}).Get(ctx, nil)
		}
		if err := workflow.Sleep(ctx, backoff); err != nil {
			return err
		}
	}
}
