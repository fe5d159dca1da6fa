package store_test

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/vigil-soc/vigil/internal/testenv"
	"github.com/vigil-soc/vigil/store"
)

func newHunt(t *testing.T, st *store.Store) *store.Hunt {
	t.Helper()
	h := &store.Hunt{Name: "spray", HuntType: "on_demand", Status: "active",
		Queries: store.NewJSON([]store.HuntQuery{{QueryType: "sql", LibraryID: "ca-password-spray"}}),
		Tags:    store.NewJSON([]string{"identity", "q4"})}
	if err := st.CreateHunt(context.Background(), h); err != nil {
		t.Fatal(err)
	}
	return h
}

func TestHuntFindingsAreDeduplicatedByFingerprint(t *testing.T) {
	st := testenv.OpenStore(t)
	ctx := context.Background()
	h := newHunt(t, st)
	start := func(wf string) *store.HuntRun {
		r, err := st.StartHuntRun(ctx, &store.HuntRun{ID: wf + "-run", HuntID: h.ID, WorkflowID: wf, RunTrigger: "manual",
			WindowFrom: time.Now().Add(-time.Hour), WindowTo: time.Now()})
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	r1 := start("wf-1")
	if again := start("wf-1"); again.ID != r1.ID {
		t.Fatalf("a retried start made run %s beside %s", again.ID, r1.ID)
	}
	f := func(fp string) store.HuntFinding {
		return store.HuntFinding{ID: fp + "-" + r1.ID, Fingerprint: fp, Severity: "high",
			Evidence: store.NewJSON(map[string]any{"src_ip": fp})}
	}
	got, err := st.RecordFindings(ctx, h.ID, r1.ID, []store.HuntFinding{f("a"), f("b")})
	if err != nil || len(got) != 2 || !got[0].New(r1.ID) {
		t.Fatalf("first run: %v %v", got, err)
	}
	// A retried activity records the same findings again: nothing changes.
	if got, err = st.RecordFindings(ctx, h.ID, r1.ID, []store.HuntFinding{f("a"), f("b")}); err != nil || got[0].SeenCount != 1 {
		t.Fatalf("retry: %v %v", got, err)
	}
	r2 := start("wf-2")
	got, err = st.RecordFindings(ctx, h.ID, r2.ID, []store.HuntFinding{
		{ID: "a2", Fingerprint: "a", Severity: "high"}, {ID: "c2", Fingerprint: "c", Severity: "low"}})
	if err != nil {
		t.Fatal(err)
	}
	if got[0].New(r2.ID) || got[0].SeenCount != 2 || !got[1].New(r2.ID) {
		t.Fatalf("second run: a new=%v seen=%d, c new=%v", got[0].New(r2.ID), got[0].SeenCount, got[1].New(r2.ID))
	}
	list, err := st.ListRunFindings(ctx, r2.ID)
	if err != nil || len(list) != 2 {
		t.Fatalf("run 2 findings: %d %v", len(list), err)
	}
	hs, total, err := st.ListHunts(ctx, store.HuntFilter{Tag: "q4"})
	if err != nil || total != 1 || hs[0].ID != h.ID {
		t.Fatalf("tag filter: %d %v", total, err)
	}
	if _, total, _ = st.ListHunts(ctx, store.HuntFilter{Tag: "q"}); total != 0 {
		t.Fatal("a tag prefix matched")
	}
}

func TestPromoteFindingOnce(t *testing.T) {
	st := testenv.OpenStore(t)
	ctx := context.Background()
	h := newHunt(t, st)
	r, _ := st.StartHuntRun(ctx, &store.HuntRun{ID: "r", HuntID: h.ID, WorkflowID: "wf", RunTrigger: "manual",
		WindowFrom: time.Now().Add(-time.Hour), WindowTo: time.Now()})
	fs, err := st.RecordFindings(ctx, h.ID, r.ID, []store.HuntFinding{{ID: "f1", Fingerprint: "x", Severity: "critical"}})
	if err != nil {
		t.Fatal(err)
	}
	in := store.NewIncident{IncidentType: "hunt_finding", Source: "hunt", Severity: "critical",
		RawData: map[string]any{"hunt_id": h.ID}}
	var wg sync.WaitGroup
	ids := make([]string, 4)
	made := make([]bool, 4)
	for i := range ids {
		wg.Add(1)
		go func() {
			defer wg.Done()
			inc, created, err := st.PromoteFinding(ctx, h.ID, fs[0].ID, in)
			if err != nil {
				t.Error(err)
				return
			}
			ids[i], made[i] = inc.ID, created
		}()
	}
	wg.Wait()
	creations := 0
	for i := range ids {
		if ids[i] != ids[0] {
			t.Fatalf("promotions gave incidents %v", ids)
		}
		if made[i] {
			creations++
		}
	}
	if creations != 1 {
		t.Fatalf("%d promotions created an incident", creations)
	}
	if _, _, err := st.PromoteFinding(ctx, h.ID, "nope", in); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("unknown finding: %v", err)
	}
	if err := st.DeleteHunt(ctx, h.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := st.GetHuntFinding(ctx, h.ID, fs[0].ID); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("findings outlived their hunt: %v", err)
	}
}

// Starts of one hunt's runs at the same moment: exactly one is recorded,
// every other is told which run is running; a retried start of the
// recorded run gets it back; a run left running past the stale bound no
// longer counts, and once the run finished the next one starts.
func TestStartHuntRunAlone(t *testing.T) {
	st := testenv.OpenStore(t)
	ctx := context.Background()
	h := newHunt(t, st)
	stale := time.Now().Add(-time.Hour)
	start := func(wf string) (*store.HuntRun, *store.HuntRun, error) {
		return st.StartHuntRunAlone(ctx, &store.HuntRun{ID: wf, HuntID: h.ID, WorkflowID: "hunt/" + wf, RunTrigger: "manual",
			QueryResults: store.NewJSON([]store.QueryResult{})}, stale)
	}
	if _, err := st.StartHuntRun(ctx, &store.HuntRun{ID: "old", HuntID: h.ID, WorkflowID: "hunt/old", RunTrigger: "manual",
		StartedAt: stale.Add(-time.Minute), QueryResults: store.NewJSON([]store.QueryResult{})}); err != nil {
		t.Fatal(err)
	}
	const n = 12
	var (
		wg            sync.WaitGroup
		mu            sync.Mutex
		started, busy []string
	)
	gate := make(chan struct{})
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-gate
			run, other, err := start(string(rune('a' + i)))
			mu.Lock()
			defer mu.Unlock()
			switch {
			case err != nil:
				t.Error(err)
			case other != nil:
				busy = append(busy, other.ID)
			default:
				started = append(started, run.ID)
			}
		}()
	}
	close(gate)
	wg.Wait()
	if len(started) != 1 || len(busy) != n-1 {
		t.Fatalf("started %v, told busy %v", started, busy)
	}
	for _, b := range busy {
		if b != started[0] {
			t.Fatalf("told busy with %s, the running run is %s", b, started[0])
		}
	}
	if again, other, err := start(started[0]); err != nil || other != nil || again.ID != started[0] {
		t.Fatalf("retried start: %+v %+v %v", again, other, err)
	}
	if err := st.FinishHuntRun(ctx, &store.HuntRun{ID: started[0], Status: store.HuntRunCompleted}); err != nil {
		t.Fatal(err)
	}
	if run, other, err := start("next"); err != nil || other != nil || run.ID != "next" {
		t.Fatalf("start after the run finished: %+v %+v %v", run, other, err)
	}
}
