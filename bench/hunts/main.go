// Command hunts measures a hunt run over seeded rows on PostgreSQL beside
// the same bare SQL query, in the same run: go run ./bench/hunts -rows 1000000.
package main

import (
	"context"
	"database/sql"
	"flag"
	"fmt"
	"net/url"
	"os"
	"slices"
	"time"

	_ "github.com/jackc/pgx/v5/stdlib"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/testsuite"
	"go.temporal.io/sdk/worker"

	"github.com/vigil-soc/vigil/hunt/datasource"
	"github.com/vigil-soc/vigil/hunt/events"
	"github.com/vigil-soc/vigil/hunt/huntact"
	"github.com/vigil-soc/vigil/hunt/huntflow"
	"github.com/vigil-soc/vigil/hunt/library"
	"github.com/vigil-soc/vigil/internal/testenv"
	"github.com/vigil-soc/vigil/store"
)

func main() {
	rows := flag.Int("rows", 1000000, "auth_events rows to seed")
	rounds := flag.Int("rounds", 11, "measured rounds of each")
	pg := flag.String("pg", os.Getenv("TEST_DATABASE_URL"), "PostgreSQL URL (default TEST_DATABASE_URL)")
	flag.Parse()
	if err := run(*pg, *rows, *rounds); err != nil {
		fmt.Fprintln(os.Stderr, "bench/hunts:", err)
		os.Exit(1)
	}
}

// eagerStart starts hunt runs as the API does in vigil serve: eagerly,
// the first workflow task handed back with the start.
var eagerStart = flag.Bool("eager", true, "start runs eagerly, as the API does")

// queryTimeout is the hunt query's timeout_secs: at most
// huntflow.LocalQueryMaxSecs runs it as a local activity, more (the
// default, 300) as a heartbeating activity.
var queryTimeout = flag.Int("timeout", 30, "the hunt query's timeout_secs (0: the default, 300)")

// warmup is how many rounds of each run unmeasured first: the first
// rounds after the seed and the server's start run slower for all three.
var warmup = flag.Int("warmup", 3, "unmeasured rounds of each before the measured ones")

// trace prints the last hunt run's history with its timings.
var trace = flag.Bool("trace", true, "print the last hunt run's history with offsets")

func run(pg string, rows, rounds int) error {
	if pg == "" {
		return fmt.Errorf("set -pg or TEST_DATABASE_URL")
	}
	ctx := context.Background()
	admin, err := sql.Open("pgx", pg)
	if err != nil {
		return err
	}
	defer admin.Close()
	for _, s := range []string{"DROP SCHEMA IF EXISTS hunt_bench CASCADE", "CREATE SCHEMA hunt_bench"} {
		if _, err := admin.ExecContext(ctx, s); err != nil {
			return err
		}
	}
	defer admin.ExecContext(ctx, "DROP SCHEMA IF EXISTS hunt_bench CASCADE")
	u, _ := url.Parse(pg)
	q := u.Query()
	q.Set("search_path", "hunt_bench")
	u.RawQuery = q.Encode()
	dsn := u.String()
	db, err := sql.Open("pgx", dsn)
	if err != nil {
		return err
	}
	defer db.Close()
	if err := events.CreateSchema(ctx, db, events.EnginePostgres); err != nil {
		return err
	}
	now := time.Now().UTC()
	start := time.Now()
	// Seeded on the server: users and addresses spread so that only the
	// planted address sprays.
	_, err = db.ExecContext(ctx, `INSERT INTO auth_events (ts, host, user_name, src_ip, country, app, logon_type, auth_method, result)
SELECT $1::timestamptz - (g % 86000) * interval '1 second', 'ws-' || (g % 500), 'user' || (g % 5000),
       '10.1.' || ((g % 5000) / 250) || '.' || (g % 250), 'US', 'vpn', 'network', 'password',
       CASE WHEN g % 50 = 0 THEN 'failure' ELSE 'success' END
FROM generate_series(1, $2::int) AS g`, now, rows)
	if err != nil {
		return fmt.Errorf("seed: %w", err)
	}
	planted := make([]events.Event, 0, 8)
	for i := range 8 {
		planted = append(planted, events.Event{Table: "auth_events", Values: []any{now.Add(-time.Hour), "dc-01", fmt.Sprint("victim", i),
			"198.51.100.23", "US", "o365", "network", "password", "failure"}})
	}
	if _, err := events.Load(ctx, db, events.EnginePostgres, planted); err != nil {
		return err
	}
	// Settle the bulk load as autovacuum soon would: without it the first
	// rounds set hint bits and race autovacuum over the fresh table, and
	// the query's own time moves by half between rounds.
	if _, err := db.ExecContext(ctx, "VACUUM ANALYZE auth_events"); err != nil {
		return err
	}
	// Then write the load's dirty pages out, so a checkpoint does not land
	// in the middle of the measured rounds (it needs a superuser or
	// pg_checkpoint; without it the run goes on unsettled).
	if _, err := db.ExecContext(ctx, "CHECKPOINT"); err != nil {
		fmt.Printf("CHECKPOINT refused (%v): a checkpoint may land in the measured rounds\n", err)
	}
	fmt.Printf("seeded %d auth_events rows in %v\n", rows+8, time.Since(start).Round(time.Millisecond))

	lq, _ := library.Get("ca-password-spray")
	bare := func() (time.Duration, error) {
		t0 := time.Now()
		rs, err := db.QueryContext(ctx, `SELECT src_ip, COUNT(DISTINCT user_name) AS users, COUNT(*) AS failures
FROM auth_events WHERE ts >= $1 AND ts < $2 AND result = 'failure'
GROUP BY src_ip HAVING COUNT(DISTINCT user_name) >= $3`, now.Add(-24*time.Hour), now, 5)
		if err != nil {
			return 0, err
		}
		n := 0
		for rs.Next() {
			n++
		}
		rs.Close()
		if n != 1 {
			return 0, fmt.Errorf("bare query found %d sprayers, want 1", n)
		}
		return time.Since(t0), rs.Err()
	}

	tmp, err := testenv.StartTemporal(ctx)
	if err != nil {
		return err
	}
	defer tmp.Stop()
	// A store of its own each run (a fresh SQLite file, or a private
	// schema with TEST_DATABASE_URL), so runs do not meet each other's hunt.
	dir, err := os.MkdirTemp("", "hunt-bench-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	st, cleanup, err := testenv.NewStore(ctx, dir)
	if err != nil {
		return err
	}
	defer cleanup()
	w := worker.New(tmp.Client, "hunt-bench", worker.Options{})
	w.RegisterWorkflow(huntflow.Run)
	acts := &huntact.Activities{Store: st}
	w.RegisterActivity(acts)
	if err := w.Start(); err != nil {
		return err
	}
	defer w.Stop()
	if err := st.PutDataSource(ctx, &store.DataSource{Name: "bench", Kind: "sql",
		Config: store.NewJSON(map[string]any{"engine": "postgres", "dsn": dsn})}); err != nil {
		return err
	}
	h := &store.Hunt{Name: "bench", HuntType: "on_demand", Status: "active", Enabled: true,
		DataSources: store.NewJSON([]string{"bench"}), Queries: store.NewJSON([]store.HuntQuery{{LibraryID: lq.ID, TimeoutSecs: *queryTimeout}})}
	if err := st.CreateHunt(ctx, h); err != nil {
		return err
	}
	var lastID string
	var lastStart, lastEnd time.Time
	huntRun := func(i int) (time.Duration, error) {
		t0 := time.Now()
		wr, err := tmp.Client.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: huntflow.WorkflowID(h.ID, fmt.Sprint("b", i)), TaskQueue: "hunt-bench",
			EnableEagerStart: *eagerStart},
			huntflow.Run, huntflow.Input{HuntID: h.ID, RunID: fmt.Sprint("b", i), Trigger: "manual", From: now.Add(-24 * time.Hour), To: now})
		if err != nil {
			return 0, err
		}
		// Awaited as the API awaits it: the workflow's result, or the
		// run's record, whichever shows the outcome first.
		res, err := huntflow.Await(ctx, wr, st, fmt.Sprint("b", i))
		if err != nil {
			return 0, err
		}
		end := time.Now()
		status, total := "", 0
		if res != nil {
			status, total = res.Status, res.TotalFindings
		} else if r, err := st.GetHuntRun(ctx, h.ID, fmt.Sprint("b", i)); err == nil {
			status, total = r.Status, r.TotalFindings
		}
		if status != store.HuntRunCompleted || total != 1 {
			return 0, fmt.Errorf("hunt run b%d: %s with %d findings", i, status, total)
		}
		lastID, lastStart, lastEnd = wr.GetID(), t0, end
		return end.Sub(t0), nil
	}
	// The data source alone: the query as a hunt sends it (bound, in a
	// read-only transaction with its statement timeout), without Temporal.
	src, err := datasource.Open(datasource.Config{Kind: datasource.KindSQL,
		Settings: map[string]any{"engine": "postgres", "dsn": dsn}}, datasource.Options{})
	if err != nil {
		return err
	}
	defer src.Close()
	params, _ := lq.Bind(nil)
	viaSource := func() (time.Duration, error) {
		t0 := time.Now()
		res, err := src.Run(ctx, datasource.Request{Query: lq.SQL, Params: params, From: now.Add(-24 * time.Hour), To: now})
		if err == nil && len(res.Rows) != 1 {
			err = fmt.Errorf("data source found %d sprayers, want 1", len(res.Rows))
		}
		return time.Since(t0), err
	}
	// Warm-up rounds of each, then alternate so all see the same cache
	// and the same load.
	measures := []struct {
		name string
		fn   func(i int) (time.Duration, error)
		got  []time.Duration
	}{
		{"bare SQL (ca-password-spray over " + fmt.Sprint(rows+8) + " rows)", func(int) (time.Duration, error) { return bare() }, nil},
		{"data source (bound, read-only transaction)", func(int) (time.Duration, error) { return viaSource() }, nil},
		{"hunt run (workflow, activities, findings)", huntRun, nil},
	}
	for i := -max(*warmup, 1); i < rounds; i++ {
		for m := range measures {
			d, err := measures[m].fn(i)
			if err != nil {
				return err
			}
			if i >= 0 {
				measures[m].got = append(measures[m].got, d)
			}
		}
	}
	for _, m := range measures {
		fmt.Printf("%-62s median %v of %v\n", m.name+":", median(m.got).Round(time.Millisecond), m.got)
	}
	mb, ms, mh := median(measures[0].got), median(measures[1].got), median(measures[2].got)
	fmt.Printf("ratio data source/bare: %.2f\n", float64(ms)/float64(mb))
	if *trace {
		if err := traceRun(ctx, tmp.Client, lastID, lastStart, lastEnd); err != nil {
			return err
		}
	}
	if err := profileSteps(acts, h.ID, now, rounds, mh); err != nil {
		return err
	}
	fmt.Printf("hunt run / bare = %.2fx (goal <= 1.2x)\n", float64(mh)/float64(mb))
	return nil
}

// profileSteps runs the run's activities one after the other in the
// process, without the Temporal server, to split a run's time between its
// steps and the hand-offs through the server (the rest of the median).
func profileSteps(acts *huntact.Activities, huntID string, now time.Time, rounds int, run time.Duration) error {
	var ts testsuite.WorkflowTestSuite
	env := ts.NewTestActivityEnvironment()
	env.RegisterActivity(acts)
	steps := map[string][]time.Duration{}
	timed := func(name string, fn any, in any, out any) error {
		t0 := time.Now()
		v, err := env.ExecuteActivity(fn, in)
		if err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		steps[name] = append(steps[name], time.Since(t0))
		if out != nil {
			return v.Get(out)
		}
		return nil
	}
	for i := range rounds + 1 {
		runID := fmt.Sprint("p", i)
		var plan huntact.PrepareResult
		if err := timed("prepare", acts.PrepareRun, huntact.PrepareInput{HuntID: huntID, RunID: runID, WorkflowID: "profile/" + runID,
			Trigger: "manual", From: now.Add(-24 * time.Hour), To: now}, &plan); err != nil {
			return err
		}
		var qo huntact.QueryOutput
		if err := timed("query", acts.RunQuery, huntact.QueryInput{HuntID: huntID, RunID: runID, From: plan.From, To: plan.To,
			Query: plan.Queries[0]}, &qo); err != nil {
			return err
		}
		if err := timed("finish", acts.FinishRun, huntact.FinishInput{HuntID: huntID, RunID: runID, Status: store.HuntRunCompleted,
			Results: []store.QueryResult{qo.Result}, Total: qo.Result.Findings, To: plan.To}, nil); err != nil {
			return err
		}
	}
	var sum time.Duration
	for _, name := range []string{"prepare", "query", "finish"} {
		d := steps[name][1:] // the first round warms up
		m := median(d)
		sum += m
		fmt.Printf("step %-8s (in process, no server): median %v of %v\n", name, m.Round(time.Millisecond), d)
	}
	fmt.Printf("hand-offs through the server and the worker: %v of the hunt run's median\n", (run - sum).Round(time.Millisecond))
	return nil
}

func median(d []time.Duration) time.Duration {
	s := slices.Clone(d)
	slices.Sort(s)
	return s[len(s)/2]
}
