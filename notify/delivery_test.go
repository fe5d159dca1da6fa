package notify_test

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/vigil-soc/vigil/dispatch"
	"github.com/vigil-soc/vigil/internal/testenv"
	"github.com/vigil-soc/vigil/notify"
	"github.com/vigil-soc/vigil/store"
	"github.com/vigil-soc/vigil/workflows"
)

func strs(v ...string) *[]string { return &v }
func text(s string) *string      { return &s }

// A burst of 50 events reaches a chat channel at no more than its rate,
// even with the worker and relay stopped and started again mid-burst, and
// the log holds exactly one sent entry per event.
func TestBurstKeepsRateAcrossRestart(t *testing.T) {
	r := newRig(t)
	p := newPeer(t, slackCheck)
	const perMinute = 300 // every 200ms, so the test takes seconds, not the default minute
	interval := time.Minute / perMinute
	ch := r.channel("burst", notify.TypeChatA, notify.ChannelInput{Events: strs("incident_created")},
		map[string]any{"webhook_url": p.URL + "/services/x", "rate_per_minute": perMinute})
	const n = 50
	for i := range n {
		r.incident(fmt.Sprintf("burst %d", i), "high")
	}
	testenv.Eventually(t, time.Minute, func() bool { return p.count() >= 10 }, "first deliveries")
	r.stop()
	stoppedAt := p.count()
	r.start()
	rows := r.waitEnded(ch.ID, n, 2*time.Minute)

	if len(rows) != n {
		t.Fatalf("log has %d entries, want exactly %d", len(rows), n)
	}
	events := map[string]bool{}
	for _, d := range rows {
		if d.Status != store.DeliverySent || events[d.EventID] {
			t.Fatalf("delivery %s: status %s, duplicate %v", d.ID, d.Status, events[d.EventID])
		}
		events[d.EventID] = true
	}
	_, headers, arrivals, problems := p.snapshot()
	if len(problems) > 0 {
		t.Fatal(problems)
	}
	seen := map[string]bool{}
	for _, h := range headers {
		seen[h.Get("X-Svc-Delivery")] = true
	}
	for _, d := range rows {
		if !seen[d.ID] {
			t.Errorf("delivery %s never reached the peer", d.ID)
		}
	}
	minGap := time.Hour
	for i := 1; i < len(arrivals); i++ {
		minGap = min(minGap, arrivals[i].Sub(arrivals[i-1]))
	}
	span := arrivals[len(arrivals)-1].Sub(arrivals[0])
	t.Logf("%d messages (%d before the restart, %d requests in all) over %s: smallest gap %s, mean %s, limit %s",
		n, stoppedAt, len(arrivals), span.Round(time.Millisecond), minGap.Round(time.Millisecond),
		(span / time.Duration(len(arrivals)-1)).Round(time.Millisecond), interval)
	if minGap < interval-5*time.Millisecond {
		t.Errorf("two messages %s apart: faster than the channel's rate (%s)", minGap, interval)
	}
}

// A failing endpoint is retried, honouring Retry-After, and marked failed
// after the channel's give-up time; one that recovers is marked sent.
func TestRetryThenGiveUp(t *testing.T) {
	r := newRig(t)
	down := newPeer(t, func(http.Header, map[string]any) string { return "" })
	down.status = func(int) (int, http.Header) {
		return http.StatusServiceUnavailable, http.Header{"Retry-After": {"1"}}
	}
	flaky := newPeer(t, func(http.Header, map[string]any) string { return "" })
	flaky.status = func(n int) (int, http.Header) {
		if n == 0 {
			return http.StatusTooManyRequests, http.Header{"Retry-After": {"3"}}
		}
		return http.StatusOK, nil
	}
	failing := r.channel("down", notify.TypeWebhook, notify.ChannelInput{Events: strs("incident_created")},
		map[string]any{"url": down.URL + "/hook", "give_up": "5s"})
	recovering := r.channel("flaky", notify.TypeWebhook, notify.ChannelInput{Events: strs("incident_created")},
		map[string]any{"url": flaky.URL + "/hook"})
	r.incident("retry me", "critical")

	got := r.waitEnded(failing.ID, 1, time.Minute)[0]
	if got.Status != store.DeliveryFailed || got.Attempts < 2 || got.Attempts != down.count() ||
		!strings.Contains(got.LastError, "503") {
		t.Errorf("failing endpoint: %+v after %d requests", got, down.count())
	}
	ok := r.waitEnded(recovering.ID, 1, time.Minute)[0]
	_, _, arrivals, _ := flaky.snapshot()
	if ok.Status != store.DeliverySent || ok.Attempts != 2 || ok.ProviderStatus != 200 {
		t.Errorf("recovering endpoint: %+v", ok)
	}
	if gap := arrivals[1].Sub(arrivals[0]); gap < 3*time.Second {
		t.Errorf("retried after %s despite Retry-After: 3", gap)
	}
}

// Routing: an event goes only to channels whose event, severity and hours
// match, and the same event for the same incident within the dedup window
// is sent once.
func TestRoutingDedupAndQuietHours(t *testing.T) {
	r := newRig(t)
	p := newPeer(t, func(http.Header, map[string]any) string { return "" })
	hook := map[string]any{"url": p.URL + "/hook"}
	updates := r.channel("updates", notify.TypeWebhook, notify.ChannelInput{Events: strs("incident_updated"),
		DedupWindow: text("5m")}, hook)
	now := time.Now().UTC()
	quiet := fmt.Sprintf("%02d:00-%02d:00", (now.Hour()+2)%24, (now.Hour()+3)%24)
	offHours := r.channel("off-hours", notify.TypeWebhook, notify.ChannelInput{Events: strs("incident_created"),
		Hours: &quiet, Timezone: text("UTC")}, hook)
	criticalOnly := r.channel("critical", notify.TypeWebhook, notify.ChannelInput{Events: strs("incident_created"),
		Severities: strs("critical")}, hook)
	today := strings.ToLower(now.Weekday().String()[:3])
	allDay := r.channel("today", notify.TypeWebhook, notify.ChannelInput{Events: strs("incident_created"),
		Days: strs(today), Sources: strs("email_gateway")}, hook)

	inc := r.incident("routing", "high")
	for _, sev := range []string{"medium", "low", "critical"} {
		if _, err := r.st.UpdateIncident(context.Background(), inc.ID, store.IncidentUpdate{Severity: &sev}); err != nil {
			t.Fatal(err)
		}
	}
	r.waitRouted()
	rows := r.waitEnded(updates.ID, 3, time.Minute)
	counts := map[string]int{}
	for _, d := range rows {
		counts[d.Status]++
	}
	if counts[store.DeliverySent] != 1 || counts[store.DeliverySuppressed] != 2 {
		t.Errorf("dedup: %v, want 1 sent and 2 suppressed", counts)
	}
	if got := r.waitEnded(allDay.ID, 1, time.Minute); got[0].Status != store.DeliverySent {
		t.Errorf("matching day and source: %+v", got[0])
	}
	if n := len(r.deliveries(offHours.ID)); n != 0 {
		t.Errorf("outside its hours the channel got %d deliveries", n)
	}
	if n := len(r.deliveries(criticalOnly.ID)); n != 0 {
		t.Errorf("a critical-only channel got %d deliveries for a high incident", n)
	}
}

// Each change records its event in its own transaction; nothing is
// recorded while no channel is enabled.
func TestOutboxRecordsEvents(t *testing.T) {
	r := newRig(t)
	ctx := context.Background()
	r.incident("before any channel", "low")
	if q, _ := r.st.QueuedEvents(ctx, 10); len(q) != 0 {
		t.Fatalf("events recorded without a channel: %d", len(q))
	}
	r.stop() // keep the outbox as written
	r.channel("all", notify.TypeWebhook, notify.ChannelInput{Events: strs("incident_created")},
		map[string]any{"url": "https://hooks.example.com/x"})
	inc := r.incident("outbox", "high")
	resolved := store.StatusResolved
	if _, err := r.st.UpdateIncident(ctx, inc.ID, store.IncidentUpdate{Status: &resolved}); err != nil {
		t.Fatal(err)
	}
	if err := r.st.SetKillSwitch(ctx, store.KillSwitchState{Active: true, Reason: "drill", ChangedBy: "alice"}); err != nil {
		t.Fatal(err)
	}
	if err := r.st.SetKillSwitch(ctx, store.KillSwitchState{Active: true, Reason: "again", ChangedBy: "alice"}); err != nil {
		t.Fatal(err)
	}
	if err := r.st.SetKillSwitch(ctx, store.KillSwitchState{Active: false, ChangedBy: "bob"}); err != nil {
		t.Fatal(err)
	}
	q, err := r.st.QueuedEvents(ctx, 100)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, ev := range q {
		got = append(got, ev.EventType)
	}
	want := "incident_created incident_resolved kill_switch_activated kill_switch_deactivated"
	if strings.Join(got, " ") != want {
		t.Errorf("outbox holds %v, want %s", got, want)
	}
	if q[0].IncidentID != inc.ID || q[0].Severity != "high" || q[0].Data.V["incident_number"] != inc.IncidentNumber {
		t.Errorf("incident_created event: %+v", q[0])
	}
}

// A delivery whose channel workflow was terminated is handed again by
// the relay's resume sweep and still sent once.
func TestResumeAfterTerminatedWorkflow(t *testing.T) {
	r := newRig(t)
	p := newPeer(t, func(http.Header, map[string]any) string { return "" })
	r.stop()
	ch := r.channel("resume", notify.TypeWebhook, notify.ChannelInput{Events: strs("incident_created")},
		map[string]any{"url": p.URL + "/hook"})
	r.incident("resume", "high")
	relay := dispatch.NewRelay(r.st, r.tc, testenv.Logger())
	if _, err := relay.Step(context.Background()); err != nil {
		t.Fatal(err)
	}
	if err := r.tc.TerminateWorkflow(context.Background(), workflows.NotifyWorkflowID(ch.ID), "", "operator"); err != nil {
		t.Fatal(err)
	}
	r.start()
	if err := relay.Resume(context.Background(), time.Now().Add(time.Minute)); err != nil {
		t.Fatal(err)
	}
	rows := r.waitEnded(ch.ID, 1, time.Minute)
	if len(rows) != 1 || rows[0].Status != store.DeliverySent || p.count() != 1 {
		t.Errorf("after resume: %+v, %d requests", rows, p.count())
	}
}
