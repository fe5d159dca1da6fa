package huntflow_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/vigil-soc/vigil/dispatch"
	"github.com/vigil-soc/vigil/hunt/huntflow"
	"github.com/vigil-soc/vigil/internal/testenv"
	"github.com/vigil-soc/vigil/store"
)

// A new incident reaches the active triggered hunts through the outbox and
// the relay, with no notification channel configured; the run's new
// findings are announced once as a hunt_finding event.
func TestNewIncidentStartsTriggeredHuntsThroughTheRelay(t *testing.T) {
	e := setup(t)
	ctx := context.Background()
	h := &store.Hunt{Name: "follow the sender's ip", HuntType: "triggered", Status: "active", Enabled: true,
		TriggerSpec: store.NewJSON(store.HuntTrigger{IncidentTypes: []string{"phishing"}}),
		DataSources: store.NewJSON([]string{"demo"}),
		Queries: store.NewJSON([]store.HuntQuery{{Name: "sign-ins from the ip", Severity: "high",
			Query: "SELECT user_name, src_ip FROM auth_events WHERE ts >= :from AND ts < :to AND src_ip = :ip"}})}
	if err := e.st.CreateHunt(ctx, h); err != nil {
		t.Fatal(err)
	}
	inc, err := e.st.CreateIncident(ctx, store.NewIncident{Title: "reported phish", IncidentType: "phishing", Severity: "high",
		Source: "mail", RawData: map[string]any{"sender_ip": "198.51.100.23"}})
	if err != nil {
		t.Fatal(err)
	}
	relay := dispatch.NewRelay(e.st, e.c, testenv.Logger())
	relay.OnIncidentCreated = func(ctx context.Context, ev *store.NotificationEvent) error {
		got, err := e.st.GetIncident(ctx, ev.IncidentID)
		if err != nil {
			return err
		}
		_, err = huntflow.StartTriggeredHunts(ctx, e.c, e.st, queue, huntflow.IncidentTrigger(got))
		return err
	}
	if n, err := relay.Step(ctx); err != nil || n != 1 {
		t.Fatalf("relay step: %d events, %v", n, err)
	}
	var res huntflow.Result
	if err := e.c.GetWorkflow(ctx, huntflow.WorkflowID(h.ID, "incident-"+inc.ID), "").Get(ctx, &res); err != nil {
		t.Fatal(err)
	}
	if res.Status != store.HuntRunCompleted || res.TotalFindings == 0 {
		t.Fatalf("triggered run: %+v", res)
	}

	// With a channel listening, the run's new findings make one event.
	ch := &store.NotificationChannel{ID: "8d3f7a52-8f0e-4c1b-9a6e-2b7c1d0e9f31", Name: "hunters", ChannelType: "webhook",
		Config: store.NewJSON(map[string]any{"url": "https://hooks.example.com/h"}), Enabled: true,
		Events: store.NewJSON([]string{"hunt_finding"})}
	if err := e.st.CreateChannel(ctx, ch); err != nil {
		t.Fatal(err)
	}
	fresh := []store.HuntFinding{
		{ID: "3b1e6c1a-0d55-4a8e-9c7e-5a1f2b3c4d01", QueryName: "q", Severity: "medium", Fingerprint: "fp-a", Evidence: store.NewJSON(map[string]any{"a": 1})},
		{ID: "3b1e6c1a-0d55-4a8e-9c7e-5a1f2b3c4d02", QueryName: "q", Severity: "critical", Fingerprint: "fp-b", Evidence: store.NewJSON(map[string]any{"b": 2})},
	}
	for range 2 { // a retried activity records the same findings again
		if _, err := e.st.RecordFindings(ctx, h.ID, "run-x", fresh); err != nil {
			t.Fatal(err)
		}
	}
	events, err := e.st.QueuedEvents(ctx, 100)
	if err != nil {
		t.Fatal(err)
	}
	var hits []store.NotificationEvent
	for _, ev := range events {
		if ev.EventType == string(store.EventHuntFinding) {
			hits = append(hits, ev)
		}
	}
	if len(hits) != 1 || hits[0].Severity != "critical" || fmt.Sprint(hits[0].Data.V["new_findings"]) != "2" {
		t.Fatalf("hunt_finding events: %+v", hits)
	}
}
