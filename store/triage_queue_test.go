package store_test

import (
	"context"
	"errors"
	"testing"

	"github.com/vigil-soc/vigil/internal/testenv"
	"github.com/vigil-soc/vigil/store"
)

// A queued automated triage is written with its run record, alone or in a
// batch: the record runs under the queue entry's id, the dispatcher reads
// it and its incident in one statement, and a triage requested meanwhile
// joins it instead of starting a second run.
func TestQueuedTriageIsRecordedWithItsQueueEntry(t *testing.T) {
	st := testenv.OpenStore(t)
	ctx := context.Background()
	alert := func(id string) store.AlertIncident {
		return store.AlertIncident{
			NewIncident:    store.NewIncident{Title: "alert " + id, IncidentType: "malware", Source: "edr", Severity: "high"},
			ExternalSource: "edr", ExternalID: id, QueueTriage: true,
		}
	}
	single, _, err := st.CreateIncidentFromAlert(ctx, alert("one"))
	if err != nil {
		t.Fatal(err)
	}
	outs := st.CreateIncidentsFromAlerts(ctx, []store.AlertIncident{alert("two"), alert("three")})
	incidents := []*store.Incident{single, outs[0].Incident, outs[1].Incident}

	entries, err := st.NextIntakes(ctx, 10, store.IntakeTriage)
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != len(incidents) {
		t.Fatalf("%d triage entries queued, want %d", len(entries), len(incidents))
	}
	byIncident := map[string]store.IntakeItem{}
	for _, e := range entries {
		byIncident[e.IncidentID] = e
	}
	for _, inc := range incidents {
		e, ok := byIncident[inc.ID]
		if !ok {
			t.Fatalf("no triage queued for %s", inc.IncidentNumber)
		}
		q, err := st.GetQueuedTriage(ctx, e.ID)
		if err != nil {
			t.Fatalf("%s: %v", inc.IncidentNumber, err)
		}
		if q.Triage.Status != store.TriageRunning || q.Triage.RequestedBy != "webhook:edr" ||
			q.Triage.WorkflowID != "triage/"+inc.ID+"/"+e.ID {
			t.Fatalf("%s: run record %+v", inc.IncidentNumber, q.Triage)
		}
		if q.Incident.ID != inc.ID || q.Incident.IncidentNumber != inc.IncidentNumber || q.Incident.Severity != "high" {
			t.Fatalf("%s: incident read back as %+v", inc.IncidentNumber, q.Incident)
		}
		joined, started, err := st.BeginTriage(ctx, inc.ID, false, &store.Triage{ID: "other-" + e.ID})
		if err != nil || started || joined.ID != e.ID {
			t.Fatalf("%s: a request meanwhile started=%v joined %+v (%v), want the queued run", inc.IncidentNumber, started, joined, err)
		}
	}
	if _, err := st.GetQueuedTriage(ctx, "no-such-entry"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("unknown entry: %v, want ErrNotFound", err)
	}
}
