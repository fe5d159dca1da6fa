package main

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"time"

	"github.com/vigil-soc/vigil/store"
)

// Seeding writes rows straight into the table: going through the API would
// take minutes for a million rows and measure nothing of interest here.
const (
	seedRowsPerStmt = 500 // 19 columns × 500 = 9,500 parameters, below both engines' limits
	// seedStmtsPerTx is one statement per transaction, as Vigil writes:
	// each statement of a longer one leaves a dead version of every
	// trigger-kept count row it touched, which grew incident_counts to 26
	// times its size and its unfiltered sum with it.
	seedStmtsPerTx = 1
)

// seedBatch is the arguments of one multi-row INSERT.
type seedBatch struct {
	rows int
	args []any
}

// seed inserts total historical incidents numbered seedYear-1..total. Rows
// are generated on one goroutine while another inserts, so Go's JSON work
// overlaps the database's.
func seed(ctx context.Context, db *sql.DB, d store.Dialect, total int, progress func(done int)) error {
	if total <= 0 {
		return nil
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	batches := make(chan seedBatch, 4)
	genErr := make(chan error, 1)
	go func() {
		defer close(batches)
		genErr <- generateSeed(ctx, total, batches)
	}()

	full := insertSQL(d, seedRowsPerStmt)
	var (
		tx   *sql.Tx
		err  error
		done int
		inTx int
	)
	defer func() {
		if tx != nil {
			_ = tx.Rollback()
		}
	}()
	for b := range batches {
		if tx == nil {
			if tx, err = db.BeginTx(ctx, nil); err != nil {
				return fmt.Errorf("seed: begin: %w", err)
			}
		}
		q := full
		if b.rows != seedRowsPerStmt {
			q = insertSQL(d, b.rows)
		}
		if _, err := tx.ExecContext(ctx, q, b.args...); err != nil {
			return fmt.Errorf("seed: insert rows %d-%d: %w", done+1, done+b.rows, err)
		}
		done += b.rows
		if inTx++; inTx == seedStmtsPerTx {
			if err := tx.Commit(); err != nil {
				return fmt.Errorf("seed: commit: %w", err)
			}
			tx, inTx = nil, 0
			progress(done)
		}
	}
	if err := <-genErr; err != nil {
		return err
	}
	if tx != nil {
		if err := tx.Commit(); err != nil {
			return fmt.Errorf("seed: commit: %w", err)
		}
		tx = nil
	}
	if done != total {
		return fmt.Errorf("seed: inserted %d rows, want %d", done, total)
	}
	progress(done)
	return nil
}

// generateSeed produces the batches. Each batch has its own deterministic
// generator, so every run and database gets the same incidents (only the
// timestamps move with the clock).
func generateSeed(ctx context.Context, total int, out chan<- seedBatch) error {
	now := store.Now()
	for first := 0; first < total; first += seedRowsPerStmt {
		n := min(seedRowsPerStmt, total-first)
		r := opRand(first, 2)
		args := make([]any, 0, n*len(incidentColumns))
		var marshalErr error
		raw := func(typ string, seq int64) string {
			b, err := json.Marshal(rawData(r, typ, int(seq)))
			if err != nil && marshalErr == nil {
				marshalErr = err
			}
			return string(b)
		}
		for k := range n {
			row := seedRow(r, now, int64(first+k+1), int64(total), raw)
			args = appendArgs(args, &row, "seed")
		}
		if marshalErr != nil {
			return marshalErr
		}
		select {
		case out <- seedBatch{rows: n, args: args}:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	return nil
}

// settle brings PostgreSQL's planner statistics and visibility map up to
// date after the bulk load, as autovacuum would shortly after such a load in
// production; without it the list queries are planned for an empty table.
// A CHECKPOINT then writes the load's dirty pages out, which the server
// would otherwise spread over the next minutes, into the rows measured
// after it (the bench's PostgreSQL role needs superuser or pg_checkpoint).
// SQLite is measured as Vigil runs it: statistics refreshed by
// PRAGMA optimize when Vigil migrates, not after the seed.
func settle(ctx context.Context, db *sql.DB, d store.Dialect) (time.Duration, error) {
	if d != store.DialectPostgres {
		return 0, nil
	}
	start := time.Now()
	for _, q := range []string{"VACUUM ANALYZE incidents", "VACUUM ANALYZE incident_counts", "CHECKPOINT"} {
		if _, err := db.ExecContext(ctx, q); err != nil {
			return 0, fmt.Errorf("%s: %w", q, err)
		}
	}
	return time.Since(start), nil
}
