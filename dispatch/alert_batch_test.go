package dispatch

import (
	"context"
	"fmt"
	"testing"

	"github.com/vigil-soc/vigil/internal/testenv"
	"github.com/vigil-soc/vigil/store"
)

// TestQueuedAlertsOfOneReadBecomeIncidentsInOneStep: a burst of queued
// alerts is handled in one step, in arrival order, not one step (and one
// read of the queue) per alert.
func TestQueuedAlertsOfOneReadBecomeIncidentsInOneStep(t *testing.T) {
	ctx := context.Background()
	st := testenv.OpenStore(t)
	const n = 3
	for i := range n {
		body := fmt.Sprintf(`{"title": "alert %d", "severity": "high", "source": "edr", "alert_id": "a-%d"}`, i, i)
		if _, err := st.EnqueueAlert(ctx, "generic", []byte(body), nil); err != nil {
			t.Fatal(err)
		}
	}
	d := NewDispatcher(st, &Launcher{Store: st}, nil, testenv.Logger())
	if !d.step(ctx) {
		t.Fatal("step took no entry")
	}
	if left, err := st.IntakeBacklog(ctx, store.IntakeAlert); err != nil || left != 0 {
		t.Fatalf("alerts left queued after one step: %d (%v)", left, err)
	}
	var rows []store.Incident
	st.DB().Order("incident_number").Find(&rows)
	if len(rows) != n {
		t.Fatalf("%d incidents, want %d", len(rows), n)
	}
	for i, r := range rows {
		if want := fmt.Sprintf("alert %d", i); r.Title != want {
			t.Fatalf("incident %d is %q, want %q: not in arrival order", i, r.Title, want)
		}
	}
}
