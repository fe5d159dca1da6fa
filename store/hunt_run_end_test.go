package store_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/vigil-soc/vigil/internal/testenv"
	"github.com/vigil-soc/vigil/store"
)

// EndHuntRun records the run and moves its hunt in one write: a completed
// run completes an on_demand hunt and advances (never rewinds) its last
// success; a failed run fails only a hunt that asks for it; a finished run
// keeps its first outcome; a caller watching the run wakes.
func TestEndHuntRunMovesTheHuntAndWakesWatchers(t *testing.T) {
	st := testenv.OpenStore(t)
	ctx := context.Background()
	later := time.Now().UTC().Truncate(time.Second)
	earlier := later.Add(-time.Hour)
	start := func(h *store.Hunt, id string) {
		t.Helper()
		if _, err := st.StartHuntRun(ctx, &store.HuntRun{ID: id, HuntID: h.ID, WorkflowID: "hunt/" + id, RunTrigger: "manual",
			WindowFrom: earlier, WindowTo: later}); err != nil {
			t.Fatal(err)
		}
	}
	end := func(h *store.Hunt, id, status string, to time.Time) {
		t.Helper()
		if err := st.EndHuntRun(ctx, h.ID, &store.HuntRun{ID: id, Status: status, TotalFindings: 3,
			QueryResults: store.NewJSON([]store.QueryResult{})}, to); err != nil {
			t.Fatal(err)
		}
	}
	reread := func(h *store.Hunt) *store.Hunt {
		t.Helper()
		got, err := st.GetHunt(ctx, h.ID)
		if err != nil {
			t.Fatal(err)
		}
		return got
	}

	onDemand := newHunt(t, st)
	start(onDemand, "r1")
	ended, stop := st.WatchHuntRun("r1")
	defer stop()
	end(onDemand, "r1", store.HuntRunCompleted, later)
	select {
	case <-ended:
	case <-time.After(5 * time.Second):
		t.Fatal("the watcher of r1 was not woken")
	}
	h := reread(onDemand)
	if h.Status != "completed" || h.LastSuccessTo == nil || !h.LastSuccessTo.Equal(later) {
		t.Fatalf("after a completed run: status %s, last success %v", h.Status, h.LastSuccessTo)
	}
	if r, _ := st.GetHuntRun(ctx, onDemand.ID, "r1"); r.Status != store.HuntRunCompleted || r.TotalFindings != 3 || r.CompletedAt == nil {
		t.Fatalf("run record: %+v", r)
	}
	// A later end of the same run changes nothing; an older window does
	// not rewind the last success.
	end(onDemand, "r1", store.HuntRunFailed, earlier)
	if r, _ := st.GetHuntRun(ctx, onDemand.ID, "r1"); r.Status != store.HuntRunCompleted {
		t.Fatalf("a finished run took a second outcome: %s", r.Status)
	}
	start(onDemand, "r2")
	end(onDemand, "r2", store.HuntRunCompleted, earlier)
	if h := reread(onDemand); !h.LastSuccessTo.Equal(later) {
		t.Fatalf("last success rewound to %v", h.LastSuccessTo)
	}

	for _, failHunt := range []bool{false, true} {
		sched := &store.Hunt{Name: fmt.Sprint("scheduled-", failHunt), HuntType: "scheduled", Status: "active", FailHuntOnError: failHunt,
			Queries: store.NewJSON([]store.HuntQuery{{QueryType: "sql", LibraryID: "ca-password-spray"}})}
		if err := st.CreateHunt(ctx, sched); err != nil {
			t.Fatal(err)
		}
		id := "f-" + sched.ID
		start(sched, id)
		end(sched, id, store.HuntRunFailed, later)
		want := "active"
		if failHunt {
			want = "failed"
		}
		if h := reread(sched); h.Status != want || h.LastSuccessTo != nil {
			t.Fatalf("failed run, fail_hunt_on_error=%v: status %s (want %s), last success %v", failHunt, h.Status, want, h.LastSuccessTo)
		}
	}
}
