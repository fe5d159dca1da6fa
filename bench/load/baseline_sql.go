package main

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"time"

	"github.com/google/uuid"

	"github.com/vigil-soc/vigil/store"
)

// Incident numbers of rows the bench writes straight into the table. Years
// far in the past keep them clear of the counter the API allocates from
// (the current UTC year), so both kinds of rows coexist without conflicts.
const (
	baselineYear = 1999 // bare insert baseline
	seedYear     = 2000 // rows seeded before the list measurements
)

// incidentColumns is every column an API-created incident carries a value
// in, so the bare insert writes the same row as the store does; columns
// only intake fills in (title, external ids, occurrences) take their
// defaults in both.
var incidentColumns = []string{
	"id", "incident_number", "number_year", "number_seq", "incident_type", "severity",
	"severity_rank", "status", "source", "description", "assignee", "raw_data", "verdict",
	"recommended_actions", "resolution", "created_by", "created_at", "updated_at", "triaged_at",
}

// listSQL is the page the API's default list reads, written by hand: the
// same columns and order, without the COUNT(*) and without GORM.
const listSQL = `SELECT id, incident_number, title, incident_type, severity, status, source,
	created_at, updated_at, triaged_at
	FROM incidents ORDER BY created_at DESC, id DESC LIMIT 20`

// insertSQL returns a multi-row INSERT of rows rows in the dialect's
// placeholder style.
func insertSQL(d store.Dialect, rows int) string {
	var b strings.Builder
	b.WriteString("INSERT INTO incidents (" + strings.Join(incidentColumns, ", ") + ") VALUES ")
	n := 0
	for r := range rows {
		if r > 0 {
			b.WriteString(", ")
		}
		b.WriteByte('(')
		for c := range incidentColumns {
			if c > 0 {
				b.WriteString(", ")
			}
			n++
			if d == store.DialectPostgres {
				b.WriteString("$" + strconv.Itoa(n))
			} else {
				b.WriteByte('?')
			}
		}
		b.WriteByte(')')
	}
	return b.String()
}

// appendArgs appends row's values in incidentColumns order.
func appendArgs(args []any, row *incidentRow, createdBy string) []any {
	var verdict, triaged any
	if row.Verdict != "" {
		verdict = row.Verdict
	}
	if row.TriagedAt != nil {
		triaged = *row.TriagedAt
	}
	return append(args, row.ID, row.Number, row.Year, row.Seq, row.Type, row.Severity,
		row.SeverityRank, row.Status, row.Source, row.Description, "", row.RawData, verdict,
		"[]", "", createdBy, row.CreatedAt, row.UpdatedAt, triaged)
}

// opRand gives operation i its own deterministic generator, so concurrent
// operations never share (and contend on) one.
func opRand(i int, stream uint64) *rand.Rand {
	return rand.New(rand.NewPCG(uint64(i), stream))
}

// newIncidentRow builds the row an API create of operation i would produce:
// a fresh incident, open, created now. Marshalling raw data here mirrors the
// client-side encoding the API path pays for.
func newIncidentRow(i int) (incidentRow, error) {
	r := opRand(i, 1)
	typ, sev := incidentTypes.pick(r), severities.pick(r)
	raw, err := json.Marshal(rawData(r, typ, i))
	if err != nil {
		return incidentRow{}, err
	}
	now := store.Now()
	seq := int64(i + 1)
	return incidentRow{
		ID: uuid.NewString(), Number: store.FormatIncidentNumber(baselineYear, seq),
		Year: baselineYear, Seq: seq, Type: typ, Severity: sev,
		SeverityRank: store.SeverityRank(sev), Status: store.StatusOpen,
		Source: sources[typ], Description: typ + " reported by " + sources[typ],
		RawData: string(raw), CreatedAt: now, UpdatedAt: now,
	}, nil
}

// bareInsertOp is baseline 1: one plain INSERT per operation through
// database/sql on the store's own pool, with no number allocation, no
// transaction and no HTTP. Operation i writes incident number first+i+1,
// so rows 1w and 1 can share a store.
func bareInsertOp(db *sql.DB, d store.Dialect, first int) opFunc {
	q := insertSQL(d, 1)
	return func(ctx context.Context, i int) error {
		row, err := newIncidentRow(first + i)
		if err != nil {
			return err
		}
		_, err = db.ExecContext(ctx, q, appendArgs(make([]any, 0, len(incidentColumns)), &row, "admin")...)
		return err
	}
}

// bareSelectOp is baseline 3: the default list page read and scanned into
// typed values, as the store would, but without counting the total.
func bareSelectOp(db *sql.DB) opFunc {
	return func(ctx context.Context, _ int) error {
		rows, err := db.QueryContext(ctx, listSQL)
		if err != nil {
			return err
		}
		defer rows.Close()
		n := 0
		for rows.Next() {
			var (
				id, number, title, typ, sev, status, source string
				created, updated                            time.Time
				triaged                                     sql.NullTime
			)
			if err := rows.Scan(&id, &number, &title, &typ, &sev, &status, &source, &created, &updated, &triaged); err != nil {
				return err
			}
			n++
		}
		if err := rows.Err(); err != nil {
			return err
		}
		if n != 20 {
			return fmt.Errorf("bare select returned %d rows, want 20", n)
		}
		return nil
	}
}
