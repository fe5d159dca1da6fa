package dispatch

import (
	"context"
	"sync"
	"testing"

	"github.com/stretchr/testify/mock"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/mocks"

	"github.com/vigil-soc/vigil/internal/testenv"
	"github.com/vigil-soc/vigil/store"
	"github.com/vigil-soc/vigil/workflows"
)

// A queued triage starts the workflow of the run recorded with its entry;
// a run closed meanwhile (superseded by a request) is left alone, and an
// entry queued before runs were recorded with their entries begins its
// run as before, under the entry's id.
func TestQueuedTriageStartsItsRecordedRun(t *testing.T) {
	ctx := context.Background()
	st := storeWithQueuedTriages(t, 3)
	entries, err := st.NextIntakes(ctx, 10, store.IntakeTriage)
	if err != nil || len(entries) != 3 {
		t.Fatalf("queued triage entries: %d (%v)", len(entries), err)
	}
	recorded, closed, older := entries[0], entries[1], entries[2]
	if err := st.FailTriage(ctx, closed.ID, "superseded"); err != nil {
		t.Fatal(err)
	}
	if err := st.DB().Exec("DELETE FROM triages WHERE id = ?", older.ID).Error; err != nil {
		t.Fatal(err)
	}

	var (
		mu      sync.Mutex
		started []string
	)
	tc := &mocks.Client{}
	tc.On("ExecuteWorkflow", mock.Anything, mock.Anything, mock.Anything, mock.Anything).Run(func(args mock.Arguments) {
		mu.Lock()
		defer mu.Unlock()
		started = append(started, args.Get(1).(client.StartWorkflowOptions).ID)
	}).Return(&mocks.WorkflowRun{}, nil)
	d := NewDispatcher(st, &Launcher{Store: st, Temporal: tc}, nil, testenv.Logger())
	if !d.step(ctx) {
		t.Fatal("step took no entry")
	}
	d.running.Wait()

	want := map[string]bool{
		workflows.TriageWorkflowID(recorded.IncidentID, recorded.ID): true,
		workflows.TriageWorkflowID(older.IncidentID, older.ID):       true,
	}
	if len(started) != len(want) {
		t.Fatalf("started %v, want the recorded run and the older entry's", started)
	}
	for _, id := range started {
		if !want[id] {
			t.Fatalf("started %s; the closed run %s must stay closed", id, closed.ID)
		}
	}
	if tr, err := st.GetTriage(ctx, older.ID); err != nil || tr.Status != store.TriageRunning {
		t.Fatalf("the older entry's run: %+v (%v), want it begun under the entry's id", tr, err)
	}
	if left, err := st.IntakeBacklog(ctx, store.IntakeTriage); err != nil || left != 0 {
		t.Fatalf("triage entries left queued: %d (%v)", left, err)
	}
}
