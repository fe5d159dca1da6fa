package events

import (
	"context"
	"database/sql"
	"fmt"
	"strconv"
	"strings"
)

// CreateSchema creates the tables and indexes of the schema if absent.
func CreateSchema(ctx context.Context, db *sql.DB, engine string) error {
	stmts, err := DDL(engine)
	if err != nil {
		return err
	}
	for _, s := range stmts {
		if _, err := db.ExecContext(ctx, s); err != nil {
			if engine == EngineMySQL && strings.Contains(err.Error(), "Duplicate key name") {
				continue // the index exists: MySQL has no CREATE INDEX IF NOT EXISTS
			}
			return fmt.Errorf("create schema: %w", err)
		}
	}
	return nil
}

// batchRows bounds one INSERT; every engine accepts 200 rows × 11 values.
const batchRows = 200

// Load inserts events in batches, one transaction per batch.
func Load(ctx context.Context, db *sql.DB, engine string, evs []Event) (int, error) {
	byTable := map[string][]Event{}
	for _, e := range evs {
		byTable[e.Table] = append(byTable[e.Table], e)
	}
	n := 0
	for _, t := range Tables {
		rows := byTable[t.Name]
		for start := 0; start < len(rows); start += batchRows {
			end := min(start+batchRows, len(rows))
			if err := insertBatch(ctx, db, engine, t, rows[start:end]); err != nil {
				return n, err
			}
			n += end - start
		}
	}
	return n, nil
}

func insertBatch(ctx context.Context, db *sql.DB, engine string, t Table, rows []Event) error {
	cols := t.Columns()
	var b strings.Builder
	b.WriteString("INSERT INTO " + t.Name + " (" + strings.Join(cols, ", ") + ") VALUES ")
	args := make([]any, 0, len(rows)*len(cols))
	for i, r := range rows {
		if len(r.Values) != len(cols) {
			return fmt.Errorf("event for %s has %d values, want %d", t.Name, len(r.Values), len(cols))
		}
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteByte('(')
		for j, v := range r.Values {
			if j > 0 {
				b.WriteString(", ")
			}
			args = append(args, v)
			if engine == EnginePostgres {
				b.WriteString("$" + strconv.Itoa(len(args)))
			} else {
				b.WriteByte('?')
			}
		}
		b.WriteByte(')')
	}
	if _, err := db.ExecContext(ctx, b.String(), args...); err != nil {
		return fmt.Errorf("insert into %s: %w", t.Name, err)
	}
	return nil
}
