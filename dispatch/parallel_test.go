package dispatch

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/mock"
	"go.temporal.io/sdk/mocks"

	"github.com/vigil-soc/vigil/internal/testenv"
	"github.com/vigil-soc/vigil/store"
)

// TestQueuedTriageStartsTogether: the triage entries of a burst of alerts
// start their workflows at once, not one after another; each start here
// waits until all of them have begun, so a dispatcher that starts them in
// turn never gets past the first. Once handled, none is taken again.
func TestQueuedTriageStartsTogether(t *testing.T) {
	ctx := context.Background()
	const n = 3
	st := storeWithQueuedTriages(t, n)

	arrived, release := make(chan struct{}, n), make(chan struct{})
	tc := &mocks.Client{}
	tc.On("ExecuteWorkflow", mock.Anything, mock.Anything, mock.Anything, mock.Anything).Run(func(mock.Arguments) {
		arrived <- struct{}{}
		select {
		case <-release:
		case <-time.After(10 * time.Second):
		}
	}).Return(&mocks.WorkflowRun{}, nil)
	d := NewDispatcher(st, &Launcher{Store: st, Temporal: tc}, nil, testenv.Logger())
	if !d.step(ctx) {
		t.Fatal("step took no entry")
	}
	for i := range n {
		select {
		case <-arrived:
		case <-time.After(5 * time.Second):
			t.Fatalf("only %d of %d triage starts began together", i, n)
		}
	}
	close(release)
	d.running.Wait()
	if d.step(ctx) {
		t.Fatal("step took an entry again after all were handled")
	}
	if left, err := st.IntakeBacklog(ctx, store.IntakeTriage); err != nil || left != 0 {
		t.Fatalf("triage entries left queued: %d (%v)", left, err)
	}
}

// storeWithQueuedTriages is a fresh store holding n alerts' incidents,
// each with its automated triage queued.
func storeWithQueuedTriages(t *testing.T, n int) *store.Store {
	t.Helper()
	ctx := context.Background()
	st, cleanup, err := testenv.NewStore(ctx, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(cleanup)
	alerts := make([]store.AlertIncident, n)
	for i := range alerts {
		alerts[i] = store.AlertIncident{
			NewIncident:    store.NewIncident{Title: fmt.Sprintf("alert %d", i), IncidentType: "malware", Source: "edr", Severity: "high"},
			ExternalSource: "edr", QueueTriage: true,
		}
	}
	for _, o := range st.CreateIncidentsFromAlerts(ctx, alerts) {
		if o.Err != nil {
			t.Fatal(o.Err)
		}
	}
	return st
}
