package store_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/vigil-soc/vigil/internal/testenv"
	"github.com/vigil-soc/vigil/store"
)

func firingAlert(id string, joinUnresolved bool) store.AlertIncident {
	return store.AlertIncident{
		NewIncident:    store.NewIncident{Title: "DiskFull", IncidentType: "alert", Source: "prom", Severity: "high", CreatedBy: "webhook:prom"},
		ExternalSource: "prom", ExternalID: id, DedupWindow: 10 * time.Minute, JoinUnresolved: joinUnresolved,
	}
}

// TestUnresolvedAlertsJoinTheirIncident: an alert whose sender notifies its
// end joins its unresolved incident however old, alone and in a batch;
// other alerts keep the dedup window; once resolved, the alert's next
// firing opens a new incident.
func TestUnresolvedAlertsJoinTheirIncident(t *testing.T) {
	st := testenv.OpenStore(t)
	ctx := context.Background()
	first, _, err := st.CreateIncidentFromAlert(ctx, firingAlert("fp-1", true))
	if err != nil {
		t.Fatal(err)
	}
	// An hour old: far outside the window.
	if err := st.DB().Model(&store.Incident{}).Where("id = ?", first.ID).
		Update("created_at", time.Now().Add(-time.Hour)).Error; err != nil {
		t.Fatal(err)
	}
	joined, dup, err := st.CreateIncidentFromAlert(ctx, firingAlert("fp-1", true))
	if err != nil || !dup || joined.ID != first.ID {
		t.Fatalf("repeat of an unresolved alert: %v %v %+v", err, dup, joined)
	}
	outs := st.CreateIncidentsFromAlerts(ctx, []store.AlertIncident{firingAlert("fp-1", true), firingAlert("fp-2", true)})
	if outs[0].Err != nil || !outs[0].Deduplicated || outs[0].Incident.ID != first.ID || outs[0].Incident.Occurrences != 3 {
		t.Fatalf("batched repeat: %+v", outs[0])
	}
	windowed, dup, err := st.CreateIncidentFromAlert(ctx, firingAlert("fp-1", false))
	if err != nil || dup || windowed.ID == first.ID {
		t.Fatalf("an alert without end notices kept the window: %v %v", err, dup)
	}

	inc, changed, err := st.ResolveAlertIncident(ctx, store.AlertResolution{ExternalSource: "prom", ExternalID: "fp-2",
		Note: "Alert resolved at the sender.", SetResolved: true})
	if err != nil || !changed || inc.Status != store.StatusResolved || inc.Resolution != "Alert resolved at the sender." {
		t.Fatalf("resolution: %v %v %+v", err, changed, inc)
	}
	if _, changed, err := st.ResolveAlertIncident(ctx, store.AlertResolution{ExternalSource: "prom", ExternalID: "fp-2",
		Note: "Alert resolved at the sender.", SetResolved: true}); err != nil || changed {
		t.Fatalf("a repeated resolution: changed %v, err %v", changed, err)
	}
	if err := st.DB().Model(&store.Incident{}).Where("id = ?", inc.ID).
		Update("created_at", time.Now().Add(-time.Hour)).Error; err != nil {
		t.Fatal(err)
	}
	again, dup, err := st.CreateIncidentFromAlert(ctx, firingAlert("fp-2", true))
	if err != nil || dup || again.ID == inc.ID {
		t.Fatalf("firing after its resolution joined the resolved incident: %v %v", err, dup)
	}
	if _, _, err := st.ResolveAlertIncident(ctx, store.AlertResolution{ExternalSource: "prom", ExternalID: "never"}); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("resolution of an unknown alert: %v", err)
	}
}
