package huntflow_test

import (
	"context"
	"testing"
	"time"

	"go.temporal.io/sdk/client"

	"github.com/vigil-soc/vigil/hunt/huntflow"
	"github.com/vigil-soc/vigil/internal/testenv"
	"github.com/vigil-soc/vigil/store"
)

// heldRun is a started run whose result comes only when released.
type heldRun struct {
	client.WorkflowRun
	result chan huntflow.Result
}

func (r heldRun) Get(ctx context.Context, v any) error {
	select {
	case res := <-r.result:
		*v.(*huntflow.Result) = res
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Await answers as soon as the run's record shows its outcome, before the
// workflow's result arrives, and the workflow's result when there is no
// record to show one (a skipped run).
func TestAwaitTakesWhicheverShowsTheOutcomeFirst(t *testing.T) {
	st := testenv.OpenStore(t)
	ctx := context.Background()
	h := &store.Hunt{Name: t.Name(), HuntType: "on_demand", Status: "active"}
	if err := st.CreateHunt(ctx, h); err != nil {
		t.Fatal(err)
	}
	if _, err := st.StartHuntRun(ctx, &store.HuntRun{ID: "r1", HuntID: h.ID, WorkflowID: "hunt/r1", RunTrigger: "manual",
		QueryResults: store.NewJSON([]store.QueryResult{})}); err != nil {
		t.Fatal(err)
	}
	run := heldRun{result: make(chan huntflow.Result, 1)}
	go func() {
		time.Sleep(50 * time.Millisecond)
		_ = st.FinishHuntRun(ctx, &store.HuntRun{ID: "r1", Status: store.HuntRunCompleted, QueryResults: store.NewJSON([]store.QueryResult{})})
	}()
	wctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	if res, err := huntflow.Await(wctx, run, st, "r1"); res != nil || err != nil {
		t.Fatalf("a run whose record shows its end: %+v %v", res, err)
	}

	run.result <- huntflow.Result{Status: "skipped", RunInProgress: "r0"}
	res, err := huntflow.Await(wctx, run, st, "never-recorded")
	if err != nil || res == nil || res.RunInProgress != "r0" {
		t.Fatalf("a skipped run: %+v %v", res, err)
	}
}
