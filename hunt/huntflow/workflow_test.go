package huntflow_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/worker"

	"github.com/vigil-soc/vigil/hunt/events"
	"github.com/vigil-soc/vigil/hunt/huntact"
	"github.com/vigil-soc/vigil/hunt/huntest"
	"github.com/vigil-soc/vigil/hunt/huntflow"
	"github.com/vigil-soc/vigil/internal/testenv"
	"github.com/vigil-soc/vigil/store"
)

const queue = "hunt-test"

type env struct {
	st *store.Store
	c  client.Client
}

func setup(t *testing.T) env {
	t.Helper()
	ctx := context.Background()
	tmp, err := testenv.StartTemporal(ctx)
	if err != nil {
		t.Skipf("no Temporal dev server: %v", err)
	}
	t.Cleanup(tmp.Stop)
	st := testenv.OpenStore(t)
	w := worker.New(tmp.Client, queue, worker.Options{})
	w.RegisterWorkflow(huntflow.Run)
	w.RegisterActivity(&huntact.Activities{Store: st})
	if err := w.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(w.Stop)
	eng := huntest.SQLite(t)
	if err := events.CreateSchema(ctx, eng.DB, eng.Name); err != nil {
		t.Fatal(err)
	}
	if _, err := events.Load(ctx, eng.DB, eng.Name, events.Demo(time.Now(), 1)); err != nil {
		t.Fatal(err)
	}
	if err := st.PutDataSource(ctx, &store.DataSource{Name: "demo", Kind: "sql", Config: store.NewJSON(eng.Settings)}); err != nil {
		t.Fatal(err)
	}
	return env{st: st, c: tmp.Client}
}

func (e env) hunt(t *testing.T, maxRuntime int, qs ...store.HuntQuery) *store.Hunt {
	t.Helper()
	h := &store.Hunt{Name: t.Name(), HuntType: "on_demand", Status: "active", Queries: store.NewJSON(qs),
		DataSources: store.NewJSON([]string{"demo"}), Schedule: store.NewJSON(store.HuntSchedule{MaxRuntimeSecs: maxRuntime})}
	if err := e.st.CreateHunt(context.Background(), h); err != nil {
		t.Fatal(err)
	}
	return h
}

func (e env) run(t *testing.T, h *store.Hunt, runID string) huntflow.Result {
	t.Helper()
	ctx := context.Background()
	wr, err := e.c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: huntflow.WorkflowID(h.ID, runID), TaskQueue: queue},
		huntflow.Run, huntflow.Input{HuntID: h.ID, RunID: runID, Trigger: "manual"})
	if err != nil {
		t.Fatal(err)
	}
	var res huntflow.Result
	if err := wr.Get(ctx, &res); err != nil {
		t.Fatal(err)
	}
	return res
}

const slowSQL = "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c WHERE x < 30000000) SELECT MAX(x) AS n FROM c"

func TestHuntRunFindsAndMarksSeen(t *testing.T) {
	e := setup(t)
	h := e.hunt(t, 0,
		store.HuntQuery{LibraryID: "ca-password-spray"},
		store.HuntQuery{LibraryID: "c2-beaconing"},
		store.HuntQuery{LibraryID: "ca-brute-force", Parameters: map[string]any{"min_failures": float64(1000)}},
		store.HuntQuery{Name: "baseline", Query: "SELECT host FROM dns_events WHERE ts >= :from AND ts < :to AND response_code = 'NXDOMAIN'", ExpectedBaseline: 1000})
	first := e.run(t, h, "r1")
	if first.Status != store.HuntRunCompleted || first.TotalFindings != 2 || first.NewFindings != 2 {
		t.Fatalf("first run: %+v", first)
	}
	if q := first.Queries[3]; q.Matches == 0 || q.Findings != 0 || !q.BelowBase {
		t.Fatalf("baseline query: %+v", q)
	}
	got, _ := e.st.GetHunt(context.Background(), h.ID)
	if got.Status != "completed" {
		t.Fatalf("on_demand hunt after its run: %s", got.Status)
	}
	second := e.run(t, h, "r2")
	if second.TotalFindings != 2 || second.NewFindings != 0 {
		t.Fatalf("second run saw the same evidence as new: %+v", second)
	}
	fs, err := e.st.ListRunFindings(context.Background(), second.RunID)
	if err != nil || len(fs) != 2 || fs[0].SeenCount != 2 {
		t.Fatalf("findings of run 2: %+v %v", fs, err)
	}
}

// A query whose timeout is at most LocalQueryMaxSecs runs as a local
// activity (no activity task in the run's history), a longer one as an
// activity; both find what they find.
func TestShortQueriesRunAsLocalActivities(t *testing.T) {
	e := setup(t)
	h := e.hunt(t, 0,
		store.HuntQuery{LibraryID: "ca-password-spray", TimeoutSecs: huntflow.LocalQueryMaxSecs},
		store.HuntQuery{LibraryID: "c2-beaconing", TimeoutSecs: huntflow.LocalQueryMaxSecs + 1})
	res := e.run(t, h, "l1")
	if res.Status != store.HuntRunCompleted || res.TotalFindings != 2 {
		t.Fatalf("result: %+v", res)
	}
	var activities, markers []string
	it := e.c.GetWorkflowHistory(context.Background(), huntflow.WorkflowID(h.ID, "l1"), "", false, enumspb.HISTORY_EVENT_FILTER_TYPE_ALL_EVENT)
	for it.HasNext() {
		ev, err := it.Next()
		if err != nil {
			t.Fatal(err)
		}
		if a := ev.GetActivityTaskScheduledEventAttributes(); a != nil {
			activities = append(activities, a.GetActivityType().GetName())
		}
		if m := ev.GetMarkerRecordedEventAttributes(); m != nil {
			markers = append(markers, m.GetMarkerName())
		}
	}
	// Prepare, the short query and finish are local; the long query is not.
	if len(activities) != 1 || activities[0] != "RunQuery" || strings.Count(strings.Join(markers, ","), "LocalActivity") != 3 {
		t.Fatalf("activities %v, markers %v", activities, markers)
	}
}

// An on-demand run started while another run of the hunt is running
// skips without a record, naming the running run.
func TestOnDemandRunsDoNotOverlap(t *testing.T) {
	e := setup(t)
	ctx := context.Background()
	h := e.hunt(t, 0, store.HuntQuery{Name: "slow", Query: slowSQL, TimeoutSecs: 120})
	first, err := e.c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: huntflow.WorkflowID(h.ID, "o1"), TaskQueue: queue},
		huntflow.Run, huntflow.Input{HuntID: h.ID, RunID: "o1", Trigger: "manual"})
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = e.c.TerminateWorkflow(ctx, first.GetID(), "", "test over") }()
	testenv.Eventually(t, 30*time.Second, func() bool {
		r, err := e.st.GetHuntRun(ctx, h.ID, "o1")
		return err == nil && r.Status == store.HuntRunRunning
	}, "the first run was never recorded as running")
	second := e.run(t, h, "o2")
	if second.Status != "skipped" || second.RunInProgress != "o1" {
		t.Fatalf("second run: %+v", second)
	}
	if _, err := e.st.GetHuntRun(ctx, h.ID, "o2"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("the skipped run was recorded: %v", err)
	}
}

func TestHuntRunLimits(t *testing.T) {
	e := setup(t)
	t.Run("query timeout names the query", func(t *testing.T) {
		h := e.hunt(t, 0, store.HuntQuery{Name: "slow one", Query: slowSQL, TimeoutSecs: 1})
		res := e.run(t, h, "t1")
		if res.Status != store.HuntRunFailed || !strings.Contains(res.Error, `query "slow one" timed out`) {
			t.Fatalf("result: %+v", res)
		}
		run, _ := e.st.GetHuntRun(context.Background(), h.ID, "t1")
		if run.Status != store.HuntRunFailed || run.Error != res.Error {
			t.Fatalf("stored run: %+v", run)
		}
	})
	t.Run("max runtime fails the run with the reason", func(t *testing.T) {
		h := e.hunt(t, 1, store.HuntQuery{Name: "slow", Query: slowSQL, TimeoutSecs: 120})
		res := e.run(t, h, "m1")
		if res.Status != store.HuntRunFailed || !strings.Contains(res.Error, "max_runtime_secs exceeded") {
			t.Fatalf("result: %+v", res)
		}
	})
}

func TestTriggeredHuntsStartOncePerIncident(t *testing.T) {
	e := setup(t)
	ctx := context.Background()
	mk := func(name string, tr store.HuntTrigger) *store.Hunt {
		h := &store.Hunt{Name: name, HuntType: "triggered", Status: "active", Enabled: true, TriggerSpec: store.NewJSON(tr),
			DataSources: store.NewJSON([]string{"demo"}),
			Queries:     store.NewJSON([]store.HuntQuery{{Name: "by ip", Query: "SELECT user_name, src_ip FROM auth_events WHERE ts >= :from AND ts < :to AND src_ip = :ip"}})}
		if err := e.st.CreateHunt(ctx, h); err != nil {
			t.Fatal(err)
		}
		return h
	}
	match := mk("phish follow-up", store.HuntTrigger{IncidentTypes: []string{"phishing"}, Severities: []string{"high", "critical"}})
	mk("malware only", store.HuntTrigger{IncidentTypes: []string{"malware"}})
	inc := huntflow.TriggerIncident{ID: "inc-1", Type: "phishing", Severity: "high", Indicators: map[string]any{"ip": "198.51.100.23"}}
	for range 2 {
		started, err := huntflow.StartTriggeredHunts(ctx, e.c, e.st, queue, inc)
		if err != nil || len(started) != 1 || started[0] != huntflow.WorkflowID(match.ID, "incident-inc-1") {
			t.Fatalf("started %v, %v", started, err)
		}
	}
	var res huntflow.Result
	if err := e.c.GetWorkflow(ctx, huntflow.WorkflowID(match.ID, "incident-inc-1"), "").Get(ctx, &res); err != nil {
		t.Fatal(err)
	}
	if res.Status != store.HuntRunCompleted || res.TotalFindings != 8 {
		t.Fatalf("triggered run with the incident's ip: %+v", res)
	}
}
