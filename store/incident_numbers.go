package store

import (
	"context"
	"fmt"
	"slices"

	"gorm.io/gorm"
)

// Incident numbers are INC-<year>-<seq>: unique within the UTC year and
// increasing in the order they are given out. A number taken by a
// creation that then fails is not given again, so numbers may have gaps.
//
// On SQLite, which has one writer at a time anyway, a counter row per year
// (incident_counters) gives them out inside the creating transaction. On
// PostgreSQL that row's lock would be held until the creating transaction
// commits, so every creation, and every intake batch, would queue behind
// the one before it for its whole commit. There a sequence per year
// (incident_seq_<year>) gives them out instead: nextval holds no lock
// beyond the call.

// incidentSeqName names the PostgreSQL sequence of a year's numbers.
func incidentSeqName(year int) string { return fmt.Sprintf("incident_seq_%d", year) }

// takeIncidentSeqs gives out n numbers of the year, in increasing order.
func (s *Store) takeIncidentSeqs(tx *gorm.DB, year, n int) ([]int64, error) {
	if s.dialect != DialectPostgres {
		last, err := addIncidentSeqs(tx, year, n)
		if err != nil {
			return nil, err
		}
		out := make([]int64, n)
		for k := range out {
			out[k] = last - int64(n-1-k)
		}
		return out, nil
	}
	if err := s.ensureIncidentSeq(tx, year); err != nil {
		return nil, err
	}
	var out []int64
	err := tx.Raw("SELECT nextval(?::regclass) FROM generate_series(1, ?)", incidentSeqName(year), n).Scan(&out).Error
	if err != nil {
		return nil, fmt.Errorf("allocate incident numbers: %w", err)
	}
	if len(out) != n {
		return nil, fmt.Errorf("allocate incident numbers: %d of %d given", len(out), n)
	}
	slices.Sort(out)
	return out, nil
}

// ensureIncidentSeqs makes sure the sequences of the current and the next
// UTC year exist; migrating does it, so creations do not have to.
func (s *Store) ensureIncidentSeqs(ctx context.Context) error {
	if s.dialect != DialectPostgres {
		return nil
	}
	year := Now().Year()
	for _, y := range []int{year, year + 1} {
		if err := s.ensureIncidentSeq(s.db.WithContext(ctx), y); err != nil {
			return err
		}
	}
	return nil
}

// ensureIncidentSeq creates the year's sequence through db when it does
// not exist, starting after every number the year already has (the counter
// row of earlier versions, the incidents). A year is remembered once its
// sequence was seen committed. Made inside a creating transaction (a year
// no migration prepared), it is visible to others only when that commits;
// a concurrent creator then fails once on the duplicate and is retried.
func (s *Store) ensureIncidentSeq(db *gorm.DB, year int) error {
	if _, ok := s.seqYears.Load(year); ok {
		return nil
	}
	name := incidentSeqName(year)
	var found *string
	if err := db.Raw("SELECT to_regclass(?)::text", name).Scan(&found).Error; err != nil {
		return fmt.Errorf("look up %s: %w", name, err)
	}
	if found != nil {
		s.seqYears.Store(year, true)
		return nil
	}
	var start int64
	err := db.Raw(`SELECT GREATEST(
		COALESCE((SELECT last_seq FROM incident_counters WHERE year = ?), 0),
		COALESCE((SELECT max(number_seq) FROM incidents WHERE number_year = ?), 0)) + 1`, year, year).Scan(&start).Error
	if err != nil {
		return fmt.Errorf("find the first number of %d: %w", year, err)
	}
	// The name and the start are numbers, not input.
	if err := db.Exec(fmt.Sprintf("CREATE SEQUENCE IF NOT EXISTS %s START WITH %d", name, start)).Error; err != nil {
		return fmt.Errorf("create %s: %w", name, err)
	}
	return nil
}
