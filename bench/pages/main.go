// Command pages measures the dashboard's server time per page (the
// incidents list, one incident, the approvals queue) over a PostgreSQL
// store holding a million incidents, as `vigil serve` wires the pages:
// each page is answered by the dashboard calling the JSON API in process.
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/vigil-soc/vigil/api"
	"github.com/vigil-soc/vigil/app"
	"github.com/vigil-soc/vigil/internal/testenv"
	"github.com/vigil-soc/vigil/settings"
	"github.com/vigil-soc/vigil/store"
	"github.com/vigil-soc/vigil/web"
)

const password = "bench password for the pages 1"

type config struct {
	PGURL  string
	Seed   int
	Rounds int
}

func main() {
	var cfg config
	flag.StringVar(&cfg.PGURL, "pg", defaultPGURL(), "PostgreSQL URL; only a private schema is touched")
	flag.IntVar(&cfg.Seed, "seed", 1_000_000, "incidents (and their audit events) seeded before measuring")
	flag.IntVar(&cfg.Rounds, "rounds", 50, "requests per page")
	flag.Parse()
	if err := run(context.Background(), cfg); err != nil {
		fmt.Fprintln(os.Stderr, "pages:", err)
		os.Exit(1)
	}
}

func defaultPGURL() string {
	for _, k := range []string{"BENCH_DATABASE_URL", "TEST_DATABASE_URL"} {
		if v := os.Getenv(k); v != "" {
			return v
		}
	}
	return "postgres://postgres@127.0.0.1:5432/postgres?sslmode=disable"
}

func progress(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "%s  "+format+"\n", append([]any{time.Now().Format("15:04:05")}, args...)...)
}

func run(ctx context.Context, cfg config) error {
	started := time.Now()
	dir, err := os.MkdirTemp("", "vigil-bench-pages-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	st, cleanup, err := testenv.NewStoreURL(ctx, cfg.PGURL, dir)
	if err != nil {
		return fmt.Errorf("open store: %w", err)
	}
	defer cleanup()
	db, err := st.SQL()
	if err != nil {
		return err
	}
	var version string
	if err := db.QueryRowContext(ctx, "SHOW server_version").Scan(&version); err != nil {
		return err
	}

	progress("seeding %d incidents and their audit events", cfg.Seed)
	seedTime, err := seed(ctx, st, cfg.Seed)
	if err != nil {
		return err
	}
	progress("seeded in %v", seedTime.Round(time.Millisecond))

	tmp, err := testenv.StartTemporal(ctx)
	if err != nil {
		return fmt.Errorf("temporal: %w", err)
	}
	defer tmp.Stop()
	quiet := slog.New(slog.DiscardHandler)
	svc := settings.NewService(st, nil)
	// One user reads every page many times; the limiter still runs.
	if _, err := svc.Put(ctx, settings.KeyRateLimits, []byte(`{"read_per_minute":100000,"write_per_minute":100000,"triage_per_minute":100000}`), "bench"); err != nil {
		return err
	}
	w := app.NewWorker(tmp.Client, st, svc, quiet, 10*time.Second)
	if err := w.Start(); err != nil {
		return err
	}
	defer w.Stop()
	router := api.NewRouter(api.Options{Store: st, Temporal: tmp.Client, Settings: svc, Log: quiet, Version: "bench",
		Connectors: app.NewConnectors(st)})
	web.New(web.Options{API: router, Log: quiet}).Mount(router.Engine)

	incID, err := arrangeIncident(ctx, st)
	if err != nil {
		return err
	}
	cookie, err := signIn(router)
	if err != nil {
		return err
	}
	pages := []string{"/incidents", "/incidents?status=open&severity=high", "/incidents?q=INC-2000-00012", "/incidents/" + incID, "/approvals"}
	var rows []string
	for _, p := range pages {
		times, err := measure(router, cookie, p, cfg.Rounds)
		if err != nil {
			return err
		}
		slices.Sort(times)
		pct := func(q float64) string {
			return fmt.Sprintf("%.1f ms", float64(times[int(q*float64(len(times)-1))].Microseconds())/1000)
		}
		rows = append(rows, fmt.Sprintf("| `GET %s` | %d | %s | %s | %s |", p, len(times), pct(0.5), pct(0.95), pct(1)))
		progress("%s: p50 %s", p, pct(0.5))
	}
	fmt.Printf("### Run, %s\n\n", started.UTC().Format("2006-01-02 15:04 UTC"))
	fmt.Printf("Machine: %d CPUs, %s/%s, %s, PostgreSQL %s. %d incidents and %d audit events seeded in %v, then VACUUM ANALYZE; %d requests per page, one at a time, after one unrecorded request.\n\n",
		runtime.NumCPU(), runtime.GOOS, runtime.GOARCH, runtime.Version(), version, cfg.Seed, cfg.Seed, seedTime.Round(time.Second), cfg.Rounds)
	fmt.Println("| Page | requests | p50 | p95 | max |")
	fmt.Println("|---|--:|--:|--:|--:|")
	fmt.Println(strings.Join(rows, "\n"))
	return nil
}

// measure times the server's whole answer to one page, rounds times, in
// process: the dashboard and every API call it makes, no network.
func measure(h http.Handler, cookie *http.Cookie, path string, rounds int) ([]time.Duration, error) {
	var out []time.Duration
	for i := range rounds + 1 {
		req := httptest.NewRequest(http.MethodGet, path, nil)
		req.AddCookie(cookie)
		rec := httptest.NewRecorder()
		start := time.Now()
		h.ServeHTTP(rec, req)
		took := time.Since(start)
		if rec.Code != http.StatusOK {
			body, _ := io.ReadAll(rec.Body)
			return nil, fmt.Errorf("GET %s: %d %.300s", path, rec.Code, body)
		}
		if i > 0 {
			out = append(out, took)
		}
	}
	return out, nil
}

// signIn creates a senior user and returns its session cookie.
func signIn(h http.Handler) (*http.Cookie, error) {
	req := httptest.NewRequest(http.MethodPost, "/login", strings.NewReader(`{"login":"bench-senior","password":"`+password+`"}`))
	req.Header.Set("Content-Type", "application/json")
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	for _, c := range rec.Result().Cookies() {
		if c.Name == "vigil_session" {
			return c, nil
		}
	}
	return nil, fmt.Errorf("sign-in answered %d without a session", rec.Code)
}

// arrangeIncident gives the newest seeded incident what an incident page
// shows (actions waiting for approval, audit events) and the approvals
// page a queue: twenty actions requested by another user.
func arrangeIncident(ctx context.Context, st *store.Store) (string, error) {
	if _, err := st.CreateUser(ctx, store.NewUser{Username: "bench-senior", Email: "senior@bench.example", Role: store.RoleSenior, Password: password}); err != nil {
		return "", err
	}
	req, err := st.CreateUser(ctx, store.NewUser{Username: "bench-analyst", Email: "analyst@bench.example", Role: store.RoleAnalyst})
	if err != nil {
		return "", err
	}
	rows, _, err := st.ListIncidents(ctx, store.IncidentFilter{Page: 1, PerPage: 20})
	if err != nil || len(rows) == 0 {
		return "", fmt.Errorf("newest incidents: %v", err)
	}
	for i := range rows {
		id := rows[i].ID
		a := &store.Action{ID: fmt.Sprintf("bench-action-%02d", i), IncidentID: &id, ActionType: "isolate_host", ApprovalLevel: store.RoleSenior,
			Parameters: store.NewJSON(map[string]any{"host_id": "host-1"}), RequestedBy: req.Username, RequestedByID: req.ID}
		if err := st.CreateAction(ctx, a); err != nil {
			return "", err
		}
		if err := st.RecordDecision(ctx, a.ID, store.ActionDecision{Outcome: "require_approval", ApprovalLevel: store.RoleSenior, Reason: "bench"}); err != nil {
			return "", err
		}
	}
	return rows[0].ID, nil
}
