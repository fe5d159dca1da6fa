package store

import (
	"context"
	"fmt"
	"strings"
)

// LabelCount is a count of rows sharing two label values.
type LabelCount struct {
	A, B string
	N    int64
}

// DurationBuckets are the upper bounds, in seconds, of the triage and
// action duration histograms.
var DurationBuckets = []float64{0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 1800, 3600, 86400}

// DurationHistogram is a cumulative histogram of durations in seconds.
type DurationHistogram struct {
	Count   uint64
	Sum     float64
	Buckets map[float64]uint64 // upper bound → observations at or below it
}

// OpsStats is what the metrics and the operations dashboard read from the
// store: counts over every process's work, not one process's.
type OpsStats struct {
	Incidents        []LabelCount // severity, status
	Actions          []LabelCount // action type, status
	IntakeBacklog    map[string]int64
	PendingApprovals int64
	AutoCompleted    int64 // completed actions policy approved on its own
	TriageDuration   DurationHistogram
	ActionDuration   DurationHistogram
}

// OpsStats reads the counts and duration histograms in a few grouped
// queries.
func (s *Store) OpsStats(ctx context.Context) (OpsStats, error) {
	var st OpsStats
	db := s.db.WithContext(ctx)
	if err := db.Model(&Incident{}).Select("severity AS a, status AS b, count(*) AS n").
		Group("severity, status").Scan(&st.Incidents).Error; err != nil {
		return st, fmt.Errorf("count incidents: %w", err)
	}
	if err := db.Model(&Action{}).Select("action_type AS a, status AS b, count(*) AS n").
		Group("action_type, status").Scan(&st.Actions).Error; err != nil {
		return st, fmt.Errorf("count actions: %w", err)
	}
	for _, a := range st.Actions {
		if a.B == ActionPendingApproval {
			st.PendingApprovals += a.N
		}
	}
	if err := db.Model(&Action{}).Where("status = ? AND decision = ?", ActionCompleted, DecisionAutoApprove).
		Count(&st.AutoCompleted).Error; err != nil {
		return st, fmt.Errorf("count automated actions: %w", err)
	}
	var backlog []LabelCount
	if err := db.Model(&IntakeItem{}).Select("kind AS a, count(*) AS n").Where("status = ?", IntakeQueued).
		Group("kind").Scan(&backlog).Error; err != nil {
		return st, fmt.Errorf("count intake backlog: %w", err)
	}
	st.IntakeBacklog = map[string]int64{IntakeAlert: 0, IntakeTriage: 0, IntakePlaybook: 0}
	for _, b := range backlog {
		st.IntakeBacklog[b.A] = b.N
	}
	var err error
	if st.TriageDuration, err = s.durationHistogram(ctx, &Triage{}, "duration_ms / 1000.0",
		"status = '"+TriageCompleted+"'"); err != nil {
		return st, fmt.Errorf("triage durations: %w", err)
	}
	if st.ActionDuration, err = s.durationHistogram(ctx, &Action{}, s.secondsBetween("requested_at", "executed_at"),
		"executed_at IS NOT NULL"); err != nil {
		return st, fmt.Errorf("action durations: %w", err)
	}
	return st, nil
}

// secondsBetween is the SQL for the seconds from column a to column b.
func (s *Store) secondsBetween(a, b string) string {
	if s.db.Dialector.Name() == "postgres" {
		return "EXTRACT(EPOCH FROM (" + b + " - " + a + "))"
	}
	return "((julianday(" + b + ") - julianday(" + a + ")) * 86400.0)"
}

// durationHistogram buckets expr (seconds) over the rows where holds, in
// one query: a sum per bucket bound, the count and the total.
func (s *Store) durationHistogram(ctx context.Context, model any, expr, where string) (DurationHistogram, error) {
	cols := []string{"count(*) AS c", "coalesce(sum(" + expr + "), 0) AS total"}
	for i, le := range DurationBuckets {
		cols = append(cols, fmt.Sprintf("coalesce(sum(CASE WHEN %s <= %g THEN 1 ELSE 0 END), 0) AS b%d", expr, le, i))
	}
	rows, err := s.db.WithContext(ctx).Model(model).Select(strings.Join(cols, ", ")).Where(where).Rows()
	if err != nil {
		return DurationHistogram{}, err
	}
	defer rows.Close()
	h := DurationHistogram{Buckets: make(map[float64]uint64, len(DurationBuckets))}
	if !rows.Next() {
		return h, rows.Err()
	}
	var count int64
	var total float64
	counts := make([]int64, len(DurationBuckets))
	dest := []any{&count, &total}
	for i := range counts {
		dest = append(dest, &counts[i])
	}
	if err := rows.Scan(dest...); err != nil {
		return h, err
	}
	h.Count, h.Sum = uint64(count), total
	for i, le := range DurationBuckets {
		h.Buckets[le] = uint64(counts[i])
	}
	return h, rows.Err()
}
