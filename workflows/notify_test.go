package workflows_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/mock"
	"go.temporal.io/sdk/testsuite"

	"github.com/vigil-soc/vigil/activities"
	"github.com/vigil-soc/vigil/notify"
	"github.com/vigil-soc/vigil/workflows"
)

// TestNotifyChannelPacesRetriesAndGivesUp: deliveries go out one at a
// time no closer than the channel's interval; a retryable failure waits
// for the vendor's Retry-After; a delivery whose retries would pass its
// give-up time is failed; an idle channel ends.
func TestNotifyChannelPacesRetriesAndGivesUp(t *testing.T) {
	var s testsuite.WorkflowTestSuite
	env := s.NewTestWorkflowEnvironment()
	env.RegisterActivity(acts)
	start := env.Now()
	sends := map[string][]time.Time{}
	env.OnActivity(acts.DeliverNotification, mock.Anything, mock.Anything).Return(
		func(_ context.Context, in activities.DeliverNotificationInput) (notify.Outcome, error) {
			sends[in.DeliveryID] = append(sends[in.DeliveryID], env.Now())
			out := notify.Outcome{Attempted: true, Interval: time.Second, Done: true, GiveUpAt: start.Add(time.Hour)}
			switch {
			case in.DeliveryID == "flaky" && len(sends["flaky"]) == 1:
				out.Done, out.RetryAfter = false, 30*time.Second
			case in.DeliveryID == "doomed":
				out.Done, out.GiveUpAt, out.Error = false, env.Now().Add(time.Second), "503"
			}
			return out, nil
		})
	var gaveUp []string
	env.OnActivity(acts.GiveUpNotification, mock.Anything, mock.Anything).Return(
		func(_ context.Context, in activities.GiveUpNotificationInput) error {
			gaveUp = append(gaveUp, in.DeliveryID+":"+in.LastError)
			return nil
		})
	env.RegisterDelayedCallback(func() {
		for _, id := range []string{"a", "b", "c", "flaky", "d", "doomed"} {
			env.SignalWorkflow(workflows.SignalNotify, id)
		}
	}, time.Second)
	env.ExecuteWorkflow(workflows.NotifyChannel, workflows.NotifyInput{ChannelID: "c1"})
	if err := env.GetWorkflowError(); err != nil {
		t.Fatal(err)
	}
	order := []string{"a", "b", "c", "flaky", "d", "doomed"}
	var last time.Time
	for _, id := range order {
		for _, at := range sends[id] {
			if !last.IsZero() && at.Sub(last) < time.Second {
				t.Errorf("%s sent %s after the previous message", id, at.Sub(last))
			}
			last = at
		}
	}
	if f := sends["flaky"]; len(f) != 2 || f[1].Sub(f[0]) < 30*time.Second {
		t.Errorf("flaky attempts %v: want a retry after Retry-After", f)
	}
	if len(sends["doomed"]) != 1 || len(gaveUp) != 1 || gaveUp[0] != "doomed:503" {
		t.Errorf("doomed: %d attempts, gave up %v", len(sends["doomed"]), gaveUp)
	}
}
