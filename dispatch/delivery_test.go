package dispatch

import (
	"context"
	"os"
	"strings"
	"testing"

	"github.com/vigil-soc/vigil/intake"
	"github.com/vigil-soc/vigil/internal/testenv"
	"github.com/vigil-soc/vigil/store"
)

// TestQueuedGroupBecomesIncidentsOnce: a queued Grafana notification of two
// alerts becomes two incidents, each marked with its own intake id, and a
// queued resolution of one of them resolves it; processing an entry again
// (a retried dispatch) creates nothing more.
func TestQueuedGroupBecomesIncidentsOnce(t *testing.T) {
	ctx := context.Background()
	st := testenv.OpenStore(t)
	src := &store.WebhookSource{Source: "grafana", Format: intake.SourceGrafana, AuthMode: store.AuthBearer,
		TokenHash: "x", ResolveIncidents: true}
	if err := st.PutWebhookSource(ctx, src); err != nil {
		t.Fatal(err)
	}
	raw, err := os.ReadFile("../intake/testdata/grafana_webhook.json")
	if err != nil {
		t.Fatal(err)
	}
	d := NewDispatcher(st, &Launcher{Store: st}, nil, testenv.Logger())
	if _, err := st.EnqueueAlert(ctx, "grafana", raw, nil); err != nil {
		t.Fatal(err)
	}
	it := nextQueuedAlert(t, st)
	first, err := d.createIncident(ctx, it)
	if err != nil || first == "" {
		t.Fatalf("dispatch: %q %v", first, err)
	}
	again, err := d.createIncident(ctx, it)
	if err != nil || again != first {
		t.Fatalf("retried dispatch answered %q, %v; want %q", again, err, first)
	}
	var rows []store.Incident
	st.DB().Where("external_source = ?", "grafana").Order("external_id").Find(&rows)
	if len(rows) != 2 || rows[0].ExternalID != "bc97ff14869b13e3" || rows[1].ExternalID != "c6eadffa33fcdf37" ||
		rows[0].IntakeID == rows[1].IntakeID {
		t.Fatalf("incidents: %+v", rows)
	}

	resolved := strings.Replace(string(raw), `"status": "firing",
      "labels": {"alertname": "High CPU usage"`, `"status": "resolved",
      "labels": {"alertname": "High CPU usage"`, 1)
	if _, err := st.EnqueueAlert(ctx, "grafana", []byte(resolved), nil); err != nil {
		t.Fatal(err)
	}
	if err := st.CompleteIntakes(ctx, []store.IntakeCompletion{{Seq: it.Seq, IncidentID: first}}); err != nil {
		t.Fatal(err)
	}
	it = nextQueuedAlert(t, st)
	if _, err := d.createIncident(ctx, it); err != nil {
		t.Fatal(err)
	}
	cpu, err := st.GetIncident(ctx, rows[0].ID)
	if err != nil || cpu.Status != store.StatusResolved || !strings.Contains(cpu.Resolution, "High CPU usage") {
		t.Fatalf("resolved alert's incident: %+v %v", cpu, err)
	}
	var n int64
	st.DB().Model(&store.Incident{}).Where("external_source = ?", "grafana").Count(&n)
	if n != 2 {
		t.Fatalf("%d incidents after the resolution, want 2", n)
	}
}

// nextQueuedAlert is the oldest due queued alert; the test fails without
// one.
func nextQueuedAlert(t *testing.T, st *store.Store) *store.IntakeItem {
	t.Helper()
	items, err := st.NextIntakes(context.Background(), 1, store.IntakeAlert)
	if err != nil || len(items) == 0 {
		t.Fatalf("no queued alert: %v", err)
	}
	return &items[0]
}
