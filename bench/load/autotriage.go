package main

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"slices"
	"sync"
	"time"

	"github.com/vigil-soc/vigil/dispatch"
	"github.com/vigil-soc/vigil/store"
)

// Measurement 6w: signed alerts on a source with auto triage, counted
// until each has a stored verdict.
const (
	autoTriageSource = "bench-triage"
	// verdictPoll is how often the count of stored verdicts is read; the
	// count reads the small triages table, never the incidents.
	verdictPoll = 50 * time.Millisecond
	// verdictStall ends the row when no verdict was stored for this long.
	verdictStall = time.Minute
	// autoTriageFirst keeps the row's alert ids clear of the intake rows'.
	autoTriageFirst = 1 << 24
)

// autoTriageRow is measurement 6w: cfg.TriageN signed alerts at -c on a
// source with auto triage, through an API whose dispatcher drains the
// intake queue as `vigil serve` runs it. Throughput is sustained verdicts
// stored per second, from the first accepted alert until the last alert's
// triage has its verdict; p50 and p99 are each alert's accept (incident
// created) to verdict stored. Vigil's worker must already be running.
func autoTriageRow(ctx context.Context, cfg config, env benchEnv, db *sql.DB, dialect store.Dialect) (stats, error) {
	quiet := slog.New(slog.DiscardHandler)
	d := dispatch.NewDispatcher(env.Store, &dispatch.Launcher{Store: env.Store, Temporal: env.Temporal}, env.Settings, quiet)
	srv := httptest.NewServer(env.router(d))
	defer srv.Close()
	dctx, stopDispatch := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() { defer close(done); d.Run(dctx) }()
	defer func() { stopDispatch(); <-done }()
	a := newAPIClient(srv.URL, env.Key, cfg.C)
	defer a.close()
	if err := registerSource(ctx, a, autoTriageSource, true); err != nil {
		return stats{}, fmt.Errorf("register auto-triage source: %w", err)
	}

	send := func(first int, accepted func()) opFunc {
		return func(ctx context.Context, i int) error {
			status, res, err := sendAlertTo(ctx, a, autoTriageSource, formattedAlertBody(autoTriageFirst+first+i))
			if err != nil {
				return err
			}
			if status != http.StatusCreated || res["status"] != "accepted" {
				return fmt.Errorf("POST /api/webhooks/%s: status %d: %v", autoTriageSource, status, res)
			}
			accepted()
			return nil
		}
	}
	if cfg.Warmup > 0 {
		base, err := countVerdicts(ctx, db)
		if err != nil {
			return stats{}, err
		}
		w, err := measure(ctx, load{N: cfg.Warmup, Concurrency: cfg.C}, send(0, func() {}))
		if err == nil && w.Failures > 0 {
			err = fmt.Errorf("%d of %d failed, first: %w", w.Failures, cfg.Warmup, w.FirstErr)
		}
		if err == nil {
			_, err = awaitVerdicts(ctx, db, base+int64(cfg.Warmup))
		}
		if err != nil {
			return stats{}, fmt.Errorf("warm-up: %w", err)
		}
	}

	base, err := countVerdicts(ctx, db)
	if err != nil {
		return stats{}, err
	}
	var (
		once        sync.Once
		firstAccept time.Time
		counter     *sqlCounter
	)
	if cfg.CountSQL {
		if counter, err = countSQL(env.Store.DB()); err != nil {
			return stats{}, err
		}
		counter.start()
	}
	measuredFrom := store.Now()
	sent, err := measure(ctx, load{N: cfg.TriageN, Concurrency: cfg.C}, send(cfg.Warmup, func() {
		once.Do(func() { firstAccept = time.Now() })
	}))
	if err != nil {
		return stats{}, err
	}
	if firstAccept.IsZero() {
		return sent, fmt.Errorf("no alert accepted: %w", sent.FirstErr)
	}
	last, err := awaitVerdicts(ctx, db, base+int64(sent.Ops-sent.Failures))
	if err != nil {
		return stats{}, err
	}
	if counter != nil {
		counter.settle(2*time.Second, time.Minute)
		counter.report(os.Stderr, "alert", sent.Ops)
	}
	out := stats{Ops: sent.Ops, Failures: sent.Failures, Elapsed: last.Sub(firstAccept), FirstErr: sent.FirstErr}
	lat, err := verdictLatencies(ctx, db, dialect, measuredFrom)
	if err != nil {
		return stats{}, err
	}
	out.P50, out.P99 = percentile(lat, 50), percentile(lat, 99)
	if cfg.Phases {
		if err := reportPhases(ctx, os.Stderr, env.Temporal, db, dialect, measuredFrom); err != nil {
			return stats{}, err
		}
	}
	return out, nil
}

// countVerdicts counts the triages that have stored their verdict.
func countVerdicts(ctx context.Context, db *sql.DB) (int64, error) {
	var n int64
	err := db.QueryRowContext(ctx, "SELECT COUNT(*) FROM triages WHERE status = '"+store.TriageCompleted+"'").Scan(&n)
	if err != nil {
		return 0, fmt.Errorf("count stored verdicts: %w", err)
	}
	return n, nil
}

// awaitVerdicts polls the count of stored verdicts until it reaches want
// and returns when that was seen; it gives up when the count stops moving
// for verdictStall.
func awaitVerdicts(ctx context.Context, db *sql.DB, want int64) (time.Time, error) {
	var (
		seen     int64 = -1
		progress       = time.Now()
	)
	t := time.NewTicker(verdictPoll)
	defer t.Stop()
	for {
		n, err := countVerdicts(ctx, db)
		if err != nil {
			return time.Time{}, err
		}
		now := time.Now()
		if n >= want {
			return now, nil
		}
		if n != seen {
			seen, progress = n, now
		} else if now.Sub(progress) > verdictStall {
			return time.Time{}, fmt.Errorf("stored verdicts stuck at %d of %d for %s", n, want, verdictStall)
		}
		select {
		case <-ctx.Done():
			return time.Time{}, ctx.Err()
		case <-t.C:
		}
	}
}

// verdictLatencies returns, ascending, how long each alert of the source
// accepted since from waited for its stored verdict: the incident's
// creation to its triage's completion, both on the store's clock.
func verdictLatencies(ctx context.Context, db *sql.DB, dialect store.Dialect, from time.Time) ([]time.Duration, error) {
	runs, err := verdictRuns(ctx, db, dialect, from)
	if err != nil {
		return nil, err
	}
	if len(runs) == 0 {
		return nil, errors.New("verdict latencies: no measured alert has a stored verdict")
	}
	out := make([]time.Duration, len(runs))
	for i, r := range runs {
		out[i] = r.Verdict.Sub(r.Created)
	}
	slices.Sort(out)
	return out, nil
}

// verdictRun is one of row 6w's triages with its store timestamps: the
// incident's creation and the verdict's.
type verdictRun struct {
	WorkflowID string
	Created    time.Time
	Verdict    time.Time
}

// verdictRuns reads the triages of row 6w's source whose incidents were
// created since from and that stored their verdict, oldest first.
func verdictRuns(ctx context.Context, db *sql.DB, dialect store.Dialect, from time.Time) ([]verdictRun, error) {
	param := "?"
	if dialect == store.DialectPostgres {
		param = "$1"
	}
	rows, err := db.QueryContext(ctx, `SELECT t.workflow_id, i.created_at, t.completed_at FROM triages t JOIN incidents i ON i.id = t.incident_id
		WHERE i.created_by = `+param+` AND t.status = '`+store.TriageCompleted+`' ORDER BY i.created_at`, "webhook:"+autoTriageSource)
	if err != nil {
		return nil, fmt.Errorf("row 6w's verdicts: %w", err)
	}
	defer rows.Close()
	var out []verdictRun
	for rows.Next() {
		var (
			r         verdictRun
			completed sql.NullTime
		)
		if err := rows.Scan(&r.WorkflowID, &r.Created, &completed); err != nil {
			return nil, fmt.Errorf("row 6w's verdicts: %w", err)
		}
		if completed.Valid && !r.Created.Before(from) {
			r.Verdict = completed.Time
			out = append(out, r)
		}
	}
	return out, rows.Err()
}
