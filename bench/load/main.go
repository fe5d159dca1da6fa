// Command load measures Vigil's incident and triage paths under concurrent
// load, each beside a bare baseline taken in the same run on the same
// machine, database server and Temporal server, and prints the results as
// Markdown tables.
//
// Absolute numbers depend on the machine; the ratios to the baselines say
// how much Vigil adds on top of the database and Temporal themselves.
//
// Usage:
//
//	go run ./bench/load [-db sqlite|postgres|both] [-pg URL] [-n 2000] [-c 16]
//	                    [-seed 100000] [-triage-n 200] [-warmup 50] [-intake-c 64]
//	                    [-only intake|lists|triage] [-verdicts FILE]
//
// The Temporal CLI is found as for the tests: $VIGIL_TEMPORAL_BIN or
// bin/temporal in the module root (make bench sets it up).
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log"
	"os"
	"os/signal"
	"runtime/pprof"
	"strings"
	"syscall"
	"time"

	gormlogger "gorm.io/gorm/logger"

	"github.com/vigil-soc/vigil/app"
	"github.com/vigil-soc/vigil/bench/internal/sealed"
	"github.com/vigil-soc/vigil/bench/internal/verdict"
	"github.com/vigil-soc/vigil/internal/testenv"
	"github.com/vigil-soc/vigil/payloadcodec"
	"github.com/vigil-soc/vigil/store"
)

// config is the parsed command line.
type config struct {
	DB      string // sqlite, postgres or both
	PGURL   string
	N       int // operations per measurement
	C       int // concurrency
	Seed    int // incidents seeded before the list measurements
	TriageN int // triages and workflow round trips measured
	Warmup  int // unrecorded operations before each measurement
	IntakeC int // concurrency of the signed-alert rows
	// Only limits the run to one group of rows: "intake", "lists", "triage" or ""
	// for all.
	Only string
	// Verdicts is the file the summary lines are appended to, or "".
	Verdicts string
	// CPUProfile names a file for a CPU profile of the whole run (the
	// bench's clients, Vigil's API, dispatcher and worker; not the
	// database or Temporal servers).
	CPUProfile string
	// CountSQL prints row 6w's statements per alert (see sqlCounter).
	CountSQL bool
	// Phases prints where row 6w's verdicts waited (see reportPhases).
	Phases bool
	// PayloadKeys encrypts the payloads Vigil's API, dispatcher and worker
	// hand to Temporal, as VIGIL_PAYLOAD_KEYS does; the baselines stay bare.
	PayloadKeys string
	// codec is PayloadKeys read; nil without keys.
	codec *payloadcodec.Codec
}

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "bench:", err)
		os.Exit(1)
	}
}

// defaultPGURL prefers a URL meant for benchmarks, then the tests' URL,
// then a local server with trust authentication.
func defaultPGURL() string {
	for _, env := range []string{"BENCH_DATABASE_URL", "TEST_DATABASE_URL"} {
		if v := os.Getenv(env); v != "" {
			return v
		}
	}
	return "postgres://postgres@127.0.0.1:5432/postgres?sslmode=disable"
}

func parseFlags(args []string) (config, error) {
	var cfg config
	fs := flag.NewFlagSet("load", flag.ContinueOnError)
	fs.StringVar(&cfg.DB, "db", "", "database to measure: sqlite, postgres or both (default both when PostgreSQL answers at -pg, else sqlite)")
	fs.StringVar(&cfg.PGURL, "pg", defaultPGURL(), "PostgreSQL URL; the bench works in a private schema it drops at the end (default $BENCH_DATABASE_URL, else $TEST_DATABASE_URL)")
	fs.IntVar(&cfg.N, "n", 2000, "operations per measurement")
	fs.IntVar(&cfg.C, "c", 16, "concurrent clients")
	fs.IntVar(&cfg.Seed, "seed", 100_000, "incidents seeded before the list measurements")
	fs.IntVar(&cfg.TriageN, "triage-n", 200, "triages and workflow round trips measured")
	fs.IntVar(&cfg.Warmup, "warmup", 50, "unrecorded operations before each measurement")
	fs.IntVar(&cfg.IntakeC, "intake-c", 64, "concurrent senders of signed alerts (rows 1w and 2w)")
	fs.StringVar(&cfg.Only, "only", "", "run one group of rows only: intake (1w, 2w), lists (1-4) or triage (5a, 5b, 6, 6w); default all")
	fs.StringVar(&cfg.Verdicts, "verdicts", verdict.DefaultFile(), "append the summary lines as JSON lines to this file, for bench/summary (default $"+verdict.EnvFile+")")
	fs.StringVar(&cfg.CPUProfile, "cpuprofile", "", "write a CPU profile of the run to this file")
	fs.BoolVar(&cfg.CountSQL, "count-sql", false, "count the store's statements during row 6w, until the runs it started end, and print them per alert by shape")
	fs.StringVar(&cfg.PayloadKeys, "payload-keys", os.Getenv("VIGIL_PAYLOAD_KEYS"), "encrypt Vigil's Temporal payloads with these keys (id:base64key,..., as VIGIL_PAYLOAD_KEYS); the bare baselines stay unencrypted (default $VIGIL_PAYLOAD_KEYS)")
	fs.BoolVar(&cfg.Phases, "phases", false, "after row 6w, read up to 200 of its runs' histories and print where each alert's wait for its verdict went")
	if err := fs.Parse(args); err != nil {
		return cfg, err
	}
	if fs.NArg() > 0 {
		return cfg, fmt.Errorf("unexpected arguments: %s", strings.Join(fs.Args(), " "))
	}
	switch {
	case cfg.N <= 0, cfg.C <= 0, cfg.TriageN <= 0, cfg.IntakeC <= 0:
		return cfg, errors.New("-n, -c, -intake-c and -triage-n must be positive")
	case cfg.Only != "" && cfg.Only != "intake" && cfg.Only != "lists" && cfg.Only != "triage":
		return cfg, fmt.Errorf("-only %q: want intake, lists or triage", cfg.Only)
	case cfg.Seed < 0, cfg.Warmup < 0:
		return cfg, errors.New("-seed and -warmup must not be negative")
	}
	var err error
	if cfg.codec, err = sealed.Codec(cfg.PayloadKeys); err != nil {
		return cfg, err
	}
	switch cfg.DB {
	case "", "sqlite", "postgres", "both":
	default:
		return cfg, fmt.Errorf("-db %q: want sqlite, postgres or both", cfg.DB)
	}
	return cfg, nil
}

// dialects resolves -db, probing PostgreSQL when -db was not given so a
// machine without it still gets a SQLite run.
func dialects(ctx context.Context, cfg *config) ([]store.Dialect, error) {
	if cfg.DB == "" {
		cfg.DB = "sqlite"
		if err := pingPostgres(ctx, cfg.PGURL); err == nil {
			cfg.DB = "both"
		} else {
			progress("bench", "PostgreSQL not reachable (%v); measuring SQLite only", err)
		}
	}
	switch cfg.DB {
	case "sqlite":
		return []store.Dialect{store.DialectSQLite}, nil
	case "postgres":
		return []store.Dialect{store.DialectPostgres}, pingPostgres(ctx, cfg.PGURL)
	}
	return []store.Dialect{store.DialectSQLite, store.DialectPostgres}, pingPostgres(ctx, cfg.PGURL)
}

func pingPostgres(ctx context.Context, url string) error {
	if !strings.HasPrefix(url, "postgres://") && !strings.HasPrefix(url, "postgresql://") {
		return fmt.Errorf("-pg %q is not a postgres:// URL", url)
	}
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	st, err := store.Open(ctx, url, nil)
	if err != nil {
		return err
	}
	return st.Close()
}

func run(args []string) error {
	cfg, err := parseFlags(args)
	if errors.Is(err, flag.ErrHelp) {
		return nil
	}
	if err != nil {
		return err
	}
	if cfg.CPUProfile != "" {
		f, err := os.Create(cfg.CPUProfile)
		if err != nil {
			return err
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			return err
		}
		defer pprof.StopCPUProfile()
	}
	// GORM connections opened without a logger of their own (the schema
	// administration in testenv) report slow statements on stdout; send them
	// to stderr so stdout stays a clean Markdown report.
	gormlogger.Default = gormlogger.New(log.New(os.Stderr, "", log.LstdFlags), gormlogger.Config{
		SlowThreshold: time.Second, LogLevel: gormlogger.Warn, IgnoreRecordNotFoundError: true,
	})
	// Interrupting still runs the deferred clean-ups: schema drop, temporary
	// directory removal and dev server shutdown.
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	ds, err := dialects(ctx, &cfg)
	if err != nil {
		return fmt.Errorf("PostgreSQL at -pg: %w", err)
	}

	// The process hosts Vigil's API and worker as `vigil serve` does, so it
	// collects garbage with Vigil's defaults.
	gc := app.TuneGC()
	start := time.Now()
	m := machine{
		Date: start, CPUModel: cpuModel(), WarmupPerCase: cfg.Warmup, LoadBefore: loadAvg(), GC: gc,
		Args: fmt.Sprintf("-db %s -n %d -c %d -intake-c %d -seed %d -triage-n %d", cfg.DB, cfg.N, cfg.C, cfg.IntakeC, cfg.Seed, cfg.TriageN),
	}
	if cfg.codec != nil {
		m.Args += " -payload-keys (set)"
	}
	progress("temporal", "starting dev server")
	tmp, err := testenv.StartTemporal(ctx)
	if err != nil {
		return err
	}
	defer tmp.Stop()
	vigilClient, closeVigilClient, err := sealed.Client(tmp.Client, cfg.codec)
	if err != nil {
		return err
	}
	defer closeVigilClient()

	var (
		tr       temporalResults
		rt       *roundTripBaseline
		sections []section
		problems []string
	)
	if cfg.Only == "" || cfg.Only == "triage" {
		if tr, rt, err = measureTemporal(ctx, cfg, tmp.Client); err != nil {
			return err
		}
		defer rt.stop()
		temporal := section{Title: "Temporal (one dev server for the whole run)"}
		temporal.add(result{ID: "5a", Name: "Baseline: bare ExecuteWorkflow, no worker", Stats: tr.BareStart})
		temporal.add(result{ID: "5b", Name: "Baseline: workflow + one activity, start and wait", Stats: tr.RoundTrip})
		sections = append(sections, temporal)
		for _, s := range temporal.Results {
			if s.Stats.Failures > 0 {
				problems = append(problems, fmt.Sprintf("temporal %s: %d failed: %v", s.Name, s.Stats.Failures, s.Stats.FirstErr))
			}
		}
	}

	var (
		runErr   error
		verdicts []verdict.Verdict
	)
	for _, d := range ds {
		r, err := runDatabase(ctx, cfg, d, vigilClient, rt)
		verdicts = append(verdicts, databaseVerdicts(cfg, d, r.Section)...)
		if d == store.DialectPostgres {
			m.Postgres = r.Version
		} else {
			m.SQLite = r.Version
		}
		// A database that failed part-way still shows what it measured.
		if len(r.Section.Results) > 0 {
			sections = append(sections, r.Section)
		}
		problems = append(problems, r.Problems...)
		if err != nil {
			runErr = err
			break
		}
	}
	m.Elapsed = time.Since(start)
	writeReport(os.Stdout, m, sections)
	fmt.Println("\n### Verdicts")
	fmt.Println()
	verdict.Print(os.Stdout, verdicts)
	if err := verdict.Append(cfg.Verdicts, verdicts); err != nil {
		problems = append(problems, err.Error())
	}
	if runErr != nil {
		return runErr
	}
	if len(problems) > 0 {
		return fmt.Errorf("%d checks failed:\n  %s", len(problems), strings.Join(problems, "\n  "))
	}
	return nil
}
