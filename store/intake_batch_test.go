package store_test

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/vigil-soc/vigil/internal/testenv"
	"github.com/vigil-soc/vigil/store"
)

// A batch commits its alerts together: a replayed signature is refused
// without failing the others, a repeated upstream id inside the batch
// joins the incident made earlier in the same batch, and numbers stay
// distinct.
func TestAlertBatchKeepsReplayAndDedupExact(t *testing.T) {
	st := testenv.OpenStore(t)
	ctx := context.Background()
	exp := time.Now().Add(time.Hour)
	alert := func(sig, id string) store.AlertIncident {
		return store.AlertIncident{
			NewIncident:    store.NewIncident{Title: "alert " + id, IncidentType: "malware", Source: "edr", Severity: "high"},
			ExternalSource: "edr", ExternalID: id, DedupWindow: time.Hour,
			Replay: &store.Replay{Key: sig, ExpiresAt: exp},
		}
	}
	if _, _, err := st.CreateIncidentFromAlert(ctx, alert("sig-old", "a-old")); err != nil {
		t.Fatal(err)
	}
	batch := []store.AlertIncident{
		alert("sig-1", "a-1"),
		alert("sig-old", "a-2"), // replayed signature
		alert("sig-3", "a-3"),
		alert("sig-4", "a-1"), // same upstream alert as the first
		alert("sig-1", "a-5"), // signature used earlier in this batch
	}
	outs := st.CreateIncidentsFromAlerts(ctx, batch)
	for _, i := range []int{1, 4} {
		if !errors.Is(outs[i].Err, store.ErrReplay) {
			t.Fatalf("alert %d: %v, want ErrReplay", i, outs[i].Err)
		}
	}
	for _, i := range []int{0, 2, 3} {
		if outs[i].Err != nil || outs[i].Incident == nil {
			t.Fatalf("alert %d: %+v", i, outs[i])
		}
	}
	if !outs[3].Deduplicated || outs[3].Incident.ID != outs[0].Incident.ID || outs[3].Incident.Occurrences != 2 {
		t.Fatalf("repeated id: %+v, want deduplicated into %s with 2 occurrences", outs[3], outs[0].Incident.ID)
	}
	if outs[0].Incident.IncidentNumber == outs[2].Incident.IncidentNumber {
		t.Fatalf("two incidents numbered %s", outs[0].Incident.IncidentNumber)
	}
	for _, i := range []int{0, 2} {
		if _, err := st.GetIncident(ctx, outs[i].Incident.ID); err != nil {
			t.Fatalf("incident of alert %d not stored: %v", i, err)
		}
	}
	// Two alerts joining an incident made before their batch count in order.
	twice := st.CreateIncidentsFromAlerts(ctx, []store.AlertIncident{alert("sig-o1", "a-old"), alert("sig-o2", "a-old")})
	if twice[0].Err != nil || twice[1].Err != nil || !twice[0].Deduplicated || twice[0].Incident.Occurrences != 2 || twice[1].Incident.Occurrences != 3 {
		t.Fatalf("two joins of an earlier incident: %+v", twice)
	}
	if inc, err := st.GetIncident(ctx, twice[0].Incident.ID); err != nil || inc.Occurrences != 3 {
		t.Fatalf("stored occurrences after two joins: %+v %v", inc, err)
	}
	// The refused alerts left nothing behind: their upstream ids made no incident.
	for _, id := range []string{"a-2", "a-5"} {
		again := st.CreateIncidentsFromAlerts(ctx, []store.AlertIncident{alert("sig-new-"+id, id), alert("sig-new2-"+id, id)})
		if again[0].Err != nil || again[0].Deduplicated || !again[1].Deduplicated {
			t.Fatalf("upstream id %s after its refusal: %+v", id, again)
		}
	}
}

// A batch whose one alert fails for another reason than a replay is
// retried alert by alert, so only that alert fails.
func TestAlertBatchIsolatesAFailingAlert(t *testing.T) {
	st := testenv.OpenStore(t)
	ctx := context.Background()
	exp := time.Now().Add(time.Hour)
	var batch []store.AlertIncident
	for i := range 3 {
		batch = append(batch, store.AlertIncident{
			NewIncident:    store.NewIncident{Title: "t", IncidentType: "malware", Source: "edr", Severity: "high"},
			ExternalSource: "edr", Replay: &store.Replay{Key: fmt.Sprint("iso-", i), ExpiresAt: exp},
		})
	}
	// A value no column can hold makes the middle alert's insert fail.
	batch[1].RawData = map[string]any{"bad": make(chan int)}
	outs := st.CreateIncidentsFromAlerts(ctx, batch)
	if outs[1].Err == nil {
		t.Fatalf("unencodable alert was created: %+v", outs[1])
	}
	for _, i := range []int{0, 2} {
		if outs[i].Err != nil {
			t.Fatalf("alert %d failed with its neighbour: %v", i, outs[i].Err)
		}
	}
	// Its signature was not remembered: the sender may retry.
	batch[1].RawData = nil
	if _, _, err := st.CreateIncidentFromAlert(ctx, batch[1]); err != nil {
		t.Fatalf("retry of the failed alert: %v", err)
	}
}

// Incidents created by a batch are announced in the outbox like single
// ones, once each, and a deduplicated alert announces nothing new.
func TestAlertBatchRecordsCreatedEvents(t *testing.T) {
	st := testenv.OpenStore(t)
	ctx := context.Background()
	ch := &store.NotificationChannel{ID: "0f7e5b1e-5f0e-4a57-9a52-1f1e0d9b2a01", Name: "soc", ChannelType: "webhook",
		Config: store.NewJSON(map[string]any{"url": "https://hooks.example.com/x"}), Enabled: true,
		Events: store.NewJSON([]string{"incident_created"})}
	if err := st.CreateChannel(ctx, ch); err != nil {
		t.Fatal(err)
	}
	alert := func(id string) store.AlertIncident {
		return store.AlertIncident{
			NewIncident:    store.NewIncident{Title: "alert " + id, IncidentType: "malware", Source: "edr", Severity: "high"},
			ExternalSource: "edr", ExternalID: id, DedupWindow: time.Hour,
		}
	}
	outs := st.CreateIncidentsFromAlerts(ctx, []store.AlertIncident{alert("b-1"), alert("b-2"), alert("b-1")})
	for i, o := range outs {
		if o.Err != nil {
			t.Fatalf("alert %d: %v", i, o.Err)
		}
	}
	events, err := st.QueuedEvents(ctx, 100)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]int{}
	for _, ev := range events {
		if ev.EventType == string(store.EventIncidentCreated) {
			seen[ev.IncidentID]++
		}
	}
	if len(seen) != 2 || seen[outs[0].Incident.ID] != 1 || seen[outs[1].Incident.ID] != 1 {
		t.Fatalf("incident_created events per incident: %v, want one each for %s and %s", seen, outs[0].Incident.ID, outs[1].Incident.ID)
	}
}
