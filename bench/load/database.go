package main

import (
	"context"
	"database/sql"
	"fmt"
	"log/slog"
	"net/http/httptest"
	"os"
	"time"

	"go.temporal.io/sdk/client"

	"github.com/vigil-soc/vigil/api"
	"github.com/vigil-soc/vigil/app"
	"github.com/vigil-soc/vigil/dispatch"
	"github.com/vigil-soc/vigil/internal/testenv"
	"github.com/vigil-soc/vigil/secrets"
	"github.com/vigil-soc/vigil/settings"
	"github.com/vigil-soc/vigil/store"
)

// triageWait lets a triage request wait for its verdict instead of
// answering 202, so the measurement covers the whole workflow.
const triageWait = 60 * time.Second

// List requests of measurement 4: the default page, a filtered page and a
// deep page sorted on another column.
var listPaths = []struct{ id, path string }{
	{"4a", "/api/incidents?per_page=20"},
	{"4b", "/api/incidents?severity=high&status=open&per_page=20"},
	{"4c", "/api/incidents?sort=-severity&per_page=20&page=50"},
}

// dbRun is the outcome of measurements 1-4, 6 and 6w on one database.
type dbRun struct {
	Section section
	Version string
	// Problems are failed checks; the run reports them and exits non-zero.
	Problems []string
}

// runDatabase measures one database in a fresh store: a private schema in
// pgURL's database, or a SQLite file in a temporary directory. Both are
// removed on return.
func runDatabase(ctx context.Context, cfg config, dialect store.Dialect, tc client.Client, roundTrip *roundTripBaseline) (out dbRun, err error) {
	scope := string(dialect)
	out.Section.Title = "SQLite"
	url := ""
	if dialect == store.DialectPostgres {
		out.Section.Title, url = "PostgreSQL", cfg.PGURL
	}
	if cfg.codec != nil {
		out.Section.Title += ", payloads encrypted"
	}
	dir, err := os.MkdirTemp("", "vigil-bench-")
	if err != nil {
		return out, err
	}
	defer os.RemoveAll(dir)
	st, cleanup, err := testenv.NewStoreURL(ctx, url, dir)
	if err != nil {
		return out, fmt.Errorf("open %s store: %w", dialect, err)
	}
	defer cleanup()
	db, err := st.SQL()
	if err != nil {
		return out, err
	}
	if out.Version, err = serverVersion(ctx, db, dialect); err != nil {
		return out, err
	}

	key, err := store.GenerateKey()
	if err != nil {
		return out, err
	}
	if _, err := st.BootstrapAdmin(ctx, key); err != nil {
		return out, fmt.Errorf("bootstrap admin: %w", err)
	}
	svc, err := liftRateLimits(ctx, st)
	if err != nil {
		return out, err
	}
	box, err := secrets.NewBox("bench-secret-key-0123456789abcdef")
	if err != nil {
		return out, err
	}
	env := benchEnv{Store: st, Temporal: tc, Settings: svc, Secrets: box, Key: key}
	srv := httptest.NewServer(env.router(nil))
	defer srv.Close()
	a := newAPIClient(srv.URL, key, max(cfg.C, cfg.IntakeC))
	defer a.close()

	sec := &out.Section
	l := load{N: cfg.N, Concurrency: cfg.C, Warmup: cfg.Warmup}
	var step stepFunc = func(id, name, baseID string, base *stats, l load, op opFunc) (*stats, error) {
		progress(scope, "%s %s: %d ops at concurrency %d", id, name, l.N, l.Concurrency)
		s, err := measure(ctx, l, op)
		if err != nil {
			return nil, fmt.Errorf("%s %s: %w", dialect, name, err)
		}
		progressStats(scope, s)
		sec.add(result{ID: id, Name: name, Stats: s, BaseID: baseID, Base: base})
		if s.Failures > 0 {
			out.Problems = append(out.Problems, fmt.Sprintf("%s %s: %d of %d failed: %v", dialect, name, s.Failures, s.Ops, s.FirstErr))
		}
		return &s, nil
	}

	if cfg.Only == "" || cfg.Only == "intake" {
		if err := intakeRows(ctx, cfg, a, db, dialect, sec, step, &out); err != nil || cfg.Only == "intake" {
			return out, err
		}
	}
	if cfg.Only == "" || cfg.Only == "lists" {
		if err := listRows(ctx, cfg, a, db, dialect, &out, step, l); err != nil || cfg.Only == "lists" {
			return out, err
		}
	}
	return out, triageRows(ctx, cfg, a, env, tc, db, dialect, roundTrip, &out, step)
}

// listRows measures creating incidents (rows 1, 2), then seeds the table
// and measures the list pages (rows 3, 4a-4c).
func listRows(ctx context.Context, cfg config, a *apiClient, db *sql.DB, dialect store.Dialect, out *dbRun, step stepFunc, l load) error {
	sec := &out.Section
	insert, err := step("1", "Baseline: bare INSERT (database/sql)", "", nil, l, bareInsertOp(db, dialect, 0))
	if err != nil {
		return err
	}
	var created createdLog
	if _, err := step("2", "POST /api/incidents", "1", insert, l, createOp(a, &created)); err != nil {
		return err
	}
	if msg, err := checkNumbers(created.numbers); err != nil {
		out.Problems = append(out.Problems, fmt.Sprintf("%s incident numbers: %v", dialect, err))
		sec.note("Incident numbers from #2 (with warm-up): FAILED: %v.", err)
	} else {
		sec.note("Incident numbers from #2 (with warm-up): %s.", msg)
	}

	if err := seedAndSettle(ctx, cfg, db, dialect, sec); err != nil {
		return err
	}

	sel, err := step("3", "Baseline: bare SELECT of one page (database/sql)", "", nil, l, bareSelectOp(db))
	if err != nil {
		return err
	}
	for _, lp := range listPaths {
		if _, err := step(lp.id, "GET "+lp.path, "3", sel, l, listOp(a, lp.path)); err != nil {
			return err
		}
	}

	return nil
}

// triageRows measures triage requests answered with their verdict (row 6)
// and verdicts stored under auto triage (row 6w), beside the bare
// one-activity workflow measured again just before them: the engine's
// pace drifts over a run, by up to 40% between runs on two CPUs, so a
// baseline taken minutes earlier would move the ratios by itself.
func triageRows(ctx context.Context, cfg config, a *apiClient, env benchEnv, tc client.Client, db *sql.DB,
	dialect store.Dialect, baseline *roundTripBaseline, out *dbRun, step stepFunc) error {
	scope, sec := string(dialect), &out.Section
	ids, err := createTriageIncidents(ctx, cfg, a, scope)
	if err != nil {
		return fmt.Errorf("%s: incidents to triage: %w", dialect, err)
	}
	tl := load{N: cfg.TriageN, Concurrency: cfg.C, Warmup: cfg.Warmup}
	roundTrip, err := step("5b", "Baseline: workflow + one activity, just before rows 6 and 6w", "", nil, tl, baseline.op())
	if err != nil {
		return err
	}
	// Vigil's worker polls the shared task queue only while this database is
	// measured, so triages never reach a worker bound to another store.
	w := app.NewWorker(tc, env.Store, env.Settings, slog.New(slog.DiscardHandler), 10*time.Second)
	if err := w.Start(); err != nil {
		return fmt.Errorf("start Vigil worker: %w", err)
	}
	defer w.Stop()
	if _, err := step("6", "POST /api/incidents/{id}/triage (waits for verdict)", "5b", roundTrip, tl, triageOp(a, ids)); err != nil {
		return err
	}
	name := fmt.Sprintf("Signed alerts, auto triage: verdicts stored per s, sustained (accept → verdict), C=%d", cfg.C)
	progress(scope, "6w %s: %d alerts", name, cfg.TriageN)
	s, err := autoTriageRow(ctx, cfg, env, db, dialect)
	if err != nil {
		return fmt.Errorf("%s auto triage: %w", dialect, err)
	}
	progressStats(scope, s)
	if cfg.codec != nil {
		if err := checkSealed(ctx, tc, db, dialect); err != nil {
			return fmt.Errorf("%s auto triage: %w", dialect, err)
		}
	}
	sec.add(result{ID: "6w", Name: name, Stats: s, BaseID: "5b", Base: roundTrip})
	if s.Failures > 0 {
		out.Problems = append(out.Problems, fmt.Sprintf("%s %s: %d of %d failed: %v", dialect, name, s.Failures, s.Ops, s.FirstErr))
	}
	return nil
}

// benchEnv is what an API server of the bench is built from.
type benchEnv struct {
	Store    *store.Store
	Temporal client.Client
	Settings *settings.Service
	Secrets  *secrets.Box
	Key      string // the bootstrap admin's API key
}

// router is the API as the bench serves it; a dispatcher, when given, is
// woken by the intake as in `vigil serve`.
func (e benchEnv) router(d *dispatch.Dispatcher) *api.Router {
	return api.NewRouter(api.Options{
		Store: e.Store, Temporal: e.Temporal, Settings: e.Settings, Log: slog.New(slog.DiscardHandler), Version: "bench",
		TriageWait: triageWait, Secrets: e.Secrets, Dispatcher: d,
	})
}

// stepFunc runs and records one measurement.
type stepFunc func(id, name, baseID string, base *stats, l load, op opFunc) (*stats, error)

// intakeInsertFirst numbers row 1w's bare inserts clear of row 1's.
const intakeInsertFirst = 1 << 30

// intakeRows measures signed alerts at -intake-c beside bare INSERTs at
// the same concurrency, then checks replay refusal and deduplication.
func intakeRows(ctx context.Context, cfg config, a *apiClient, db *sql.DB, dialect store.Dialect, sec *section, step stepFunc, out *dbRun) error {
	if err := registerBenchSource(ctx, a); err != nil {
		return fmt.Errorf("register webhook source: %w", err)
	}
	il := load{N: cfg.N, Concurrency: cfg.IntakeC, Warmup: cfg.Warmup}
	name := fmt.Sprintf("Baseline: bare INSERT (database/sql), C=%d", cfg.IntakeC)
	base, err := step("1w", name, "", nil, il, bareInsertOp(db, dialect, intakeInsertFirst))
	if err != nil {
		return err
	}
	name = fmt.Sprintf("POST /api/webhooks/{source}, signed, no auto triage, C=%d", cfg.IntakeC)
	got, err := step("2w", name, "1w", base, il, webhookOp(a))
	if err != nil {
		return err
	}
	sec.note("Intake (#2w): %s.", intakeGoal(*got))
	if err := checkIntakeExactness(ctx, a); err != nil {
		out.Problems = append(out.Problems, fmt.Sprintf("%s intake exactness: %v", dialect, err))
		sec.note("Replay and dedup after #2w: FAILED: %v.", err)
	} else {
		sec.note("Replay and dedup after #2w: a replayed delivery was refused with 409; the same alert id under a fresh signature joined its incident.")
	}
	return nil
}

// benchRateLimit is the highest per-minute limit the settings accept. One
// key drives the whole run, so the default limits would turn the
// measurements into a test of the limiter's refusals; the limiter itself
// still runs on every request and is part of what is measured.
const benchRateLimit = 100_000

// liftRateLimits stores the highest rate limits in the bench's own store.
func liftRateLimits(ctx context.Context, st *store.Store) (*settings.Service, error) {
	svc := settings.NewService(st, nil)
	body := fmt.Sprintf(`{"read_per_minute":%d,"write_per_minute":%d,"triage_per_minute":%d}`,
		benchRateLimit, benchRateLimit, benchRateLimit)
	if _, err := svc.Put(ctx, settings.KeyRateLimits, []byte(body), "bench"); err != nil {
		return nil, fmt.Errorf("lift rate limits: %w", err)
	}
	return svc, nil
}

// seedAndSettle loads the historical incidents the list measurements read,
// and notes how long that took and how big the table is.
func seedAndSettle(ctx context.Context, cfg config, db *sql.DB, dialect store.Dialect, sec *section) error {
	scope := string(dialect)
	progress(scope, "seeding %d incidents", cfg.Seed)
	start := time.Now()
	next := min(100_000, cfg.Seed)
	err := seed(ctx, db, dialect, cfg.Seed, func(done int) {
		if done >= next {
			progress(scope, "  seeded %d", done)
			next = min(done+100_000, cfg.Seed+1)
		}
	})
	if err != nil {
		return fmt.Errorf("%s: %w", dialect, err)
	}
	took := time.Since(start)
	vac, err := settle(ctx, db, dialect)
	if err != nil {
		return fmt.Errorf("%s: %w", dialect, err)
	}
	var rows int64
	if err := db.QueryRowContext(ctx, "SELECT COUNT(*) FROM incidents").Scan(&rows); err != nil {
		return fmt.Errorf("%s: count incidents: %w", dialect, err)
	}
	msg := fmt.Sprintf("Seeded %d incidents in %s (%.0f rows/s, multi-row INSERTs of %d rows, %d rows per transaction)",
		cfg.Seed, took.Round(time.Millisecond), float64(cfg.Seed)/took.Seconds(), seedRowsPerStmt, seedRowsPerStmt*seedStmtsPerTx)
	if dialect == store.DialectPostgres {
		msg += fmt.Sprintf(", then VACUUM ANALYZE and CHECKPOINT in %s", vac.Round(time.Millisecond))
	}
	sec.note("%s; the table held %d incidents during #3 and #4.", msg, rows)
	return nil
}

// createTriageIncidents creates, through the API, one incident per triage
// operation (warm-up included), so every triage runs a fresh workflow
// instead of returning an earlier verdict.
func createTriageIncidents(ctx context.Context, cfg config, a *apiClient, scope string) ([]string, error) {
	total := cfg.Warmup + cfg.TriageN
	progress(scope, "creating %d incidents to triage", total)
	var created createdLog
	s, err := measure(ctx, load{N: total, Concurrency: cfg.C}, createOp(a, &created))
	if err != nil {
		return nil, err
	}
	if s.Failures > 0 {
		return nil, fmt.Errorf("%d of %d creates failed: %w", s.Failures, total, s.FirstErr)
	}
	return created.ids, nil
}

// serverVersion asks the engine for its version, for the machine line.
func serverVersion(ctx context.Context, db *sql.DB, dialect store.Dialect) (string, error) {
	q := "SELECT sqlite_version()"
	if dialect == store.DialectPostgres {
		q = "SHOW server_version"
	}
	var v string
	if err := db.QueryRowContext(ctx, q).Scan(&v); err != nil {
		return "", fmt.Errorf("%s version: %w", dialect, err)
	}
	return v, nil
}
