package store

import (
	"context"
	"errors"
	"fmt"
	"time"

	"gorm.io/gorm"
	"gorm.io/gorm/clause"
)

// BeginTriage decides, atomically with respect to other triage requests for
// the incident, whether a new triage run starts:
//   - a triage already running is returned (started false), so concurrent
//     requests share one run;
//   - without force, an incident that already has a verdict returns its
//     latest completed triage (started false);
//   - otherwise next is inserted as a running triage (started true).
func (s *Store) BeginTriage(ctx context.Context, incidentID string, force bool, next *Triage) (t *Triage, started bool, err error) {
	_, t, started, err = s.beginTriage(ctx, incidentID, force, next, false)
	return t, started, err
}

// BeginIncidentTriage is BeginTriage for a caller that holds only the
// incident's id: it also returns the incident, read whole by the statement
// that locks it, so the caller needs no read of its own.
func (s *Store) BeginIncidentTriage(ctx context.Context, incidentID string, force bool, next *Triage) (*Incident, *Triage, bool, error) {
	return s.beginTriage(ctx, incidentID, force, next, true)
}

func (s *Store) beginTriage(ctx context.Context, incidentID string, force bool, next *Triage, whole bool) (inc *Incident, t *Triage, started bool, err error) {
	if err := checkID(incidentID); err != nil {
		return nil, nil, false, err
	}
	for attempt := 0; attempt < 3; attempt++ {
		inc, t, started, err = s.beginTriageOnce(ctx, incidentID, force, next, whole)
		// Two PostgreSQL transactions can both find nothing running; the
		// unique index lets one insert and the loser re-reads.
		if !errors.Is(err, ErrConflict) {
			return inc, t, started, err
		}
	}
	return nil, nil, false, err
}

// beginTriageOnce is one attempt of beginTriage; whole reads every column
// of the incident instead of the two the decision needs.
func (s *Store) beginTriageOnce(ctx context.Context, incidentID string, force bool, next *Triage, whole bool) (*Incident, *Triage, bool, error) {
	var (
		out     *Triage
		started bool
		inc     Incident
	)
	err := s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		q := tx
		if s.dialect == DialectPostgres {
			// Locking the incident row orders this request after any
			// triage completion in flight, which updates the same row.
			q = q.Clauses(clause.Locking{Strength: "UPDATE"})
		}
		if !whole {
			q = q.Select("id", "triaged_at")
		}
		if err := q.Take(&inc, "id = ?", incidentID).Error; err != nil {
			return err
		}
		var existing Triage
		err := tx.Where("incident_id = ? AND status = ?", incidentID, TriageRunning).Take(&existing).Error
		if err == nil {
			out = &existing
			return nil
		}
		if !errors.Is(err, gorm.ErrRecordNotFound) {
			return err
		}
		if !force && inc.TriagedAt != nil {
			err := tx.Where("incident_id = ? AND status = ?", incidentID, TriageCompleted).
				Order("started_at DESC").Take(&existing).Error
			if err == nil {
				out = &existing
				return nil
			}
			if !errors.Is(err, gorm.ErrRecordNotFound) {
				return err
			}
		}
		t := *next
		t.IncidentID = incidentID
		t.Status = TriageRunning
		t.StartedAt = Now()
		t.RecommendedActions = NewJSON([]string{})
		if err := tx.Create(&t).Error; err != nil {
			return err
		}
		out, started = &t, true
		return nil
	})
	if err != nil {
		return nil, nil, false, fmt.Errorf("begin triage: %w", translate(err))
	}
	return &inc, out, started, nil
}

// GetTriage reads one triage record.
func (s *Store) GetTriage(ctx context.Context, id string) (*Triage, error) {
	var t Triage
	if err := s.db.WithContext(ctx).Take(&t, "id = ?", id).Error; err != nil {
		return nil, translate(err)
	}
	return &t, nil
}

// ListTriages returns an incident's triage records, newest first, at
// most limit of them (the index on incident_id, started_at serves it).
func (s *Store) ListTriages(ctx context.Context, incidentID string, limit int) ([]Triage, error) {
	var out []Triage
	err := s.db.WithContext(ctx).Where("incident_id = ?", incidentID).
		Order("started_at DESC").Limit(limit).Find(&out).Error
	if err != nil {
		return nil, fmt.Errorf("list triages: %w", err)
	}
	return out, nil
}

// TriageOutcome is what a finished analysis writes back.
type TriageOutcome struct {
	Verdict            Verdict
	RecommendedActions []string
	Indicators         map[string][]string
	Analyzer           string
	Model              string
	FallbackReason     string
	// Intel holds the threat-intelligence ratings the analysis saw.
	Intel []map[string]any
	// Actions are the recommended actions requested for the verdict,
	// created pending in the same transaction (one already there is kept).
	Actions []*Action
}

// CompleteTriage stores the verdict on the triage record and on its
// incident in one transaction. It is idempotent: completing an already
// completed triage returns the stored record unchanged, so an activity retry
// cannot write twice.
func (s *Store) CompleteTriage(ctx context.Context, triageID string, out TriageOutcome) (*Triage, error) {
	var t Triage
	err := s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		now := Now()
		actions := out.RecommendedActions
		if actions == nil {
			actions = []string{}
		}
		if out.Intel == nil {
			out.Intel = []map[string]any{}
		}
		verdict := out.Verdict
		// The run is written without a read first; the update answers the
		// record as it left it. No row means it was completed already (a
		// repeat, which changes nothing) or does not exist.
		res := tx.Model(&t).Clauses(clause.Returning{}).Where("id = ? AND status <> ?", triageID, TriageCompleted).
			Updates(map[string]any{
				"status": TriageCompleted, "verdict": NewJSON(&verdict), "recommended_actions": NewJSON(actions),
				"indicators": NewJSON(out.Indicators), "analyzer": out.Analyzer, "model": out.Model,
				"fallback_reason": out.FallbackReason, "intel": NewJSON(out.Intel), "completed_at": now,
				"duration_ms": s.millisSince("started_at", now),
			})
		if res.Error != nil {
			return res.Error
		}
		if res.RowsAffected == 0 {
			return tx.Take(&t, "id = ?", triageID).Error
		}
		// A resolved incident keeps its status; a fresh verdict on it is
		// still recorded. The update also answers whether the event has a
		// consumer (see notifying), saving a round trip.
		matched, notify, err := updateNotifying(tx, "incidents", "id = ?", []any{t.IncidentID}, map[string]any{
			"verdict": NewJSON(&verdict), "recommended_actions": NewJSON(actions), "triaged_at": now, "updated_at": now,
			"status": gorm.Expr("CASE WHEN status = ? THEN status ELSE ? END", StatusResolved, StatusTriaged),
		}, EventTriageCompleted)
		if err != nil {
			return err
		}
		if err := createActionsTx(tx, out.Actions); err != nil {
			return err
		}
		data := map[string]any{
			"triage_id": t.ID, "classification": verdict.Classification, "confidence": verdict.Confidence,
			"category": verdict.Category, "recommended_actions": actions,
		}
		if !matched { // the incident is gone: the event goes without it
			return recordIncidentEvent(tx, EventTriageCompleted, t.IncidentID, data)
		}
		if !notify {
			return nil
		}
		return incidentEvent(tx, EventTriageCompleted, t.IncidentID, data)
	})
	if err != nil {
		return nil, fmt.Errorf("complete triage: %w", translate(err))
	}
	return &t, nil
}

// millisSince is SQL for the whole milliseconds from column's time to t,
// so a row's duration is written by the statement that ends it.
func (s *Store) millisSince(column string, t time.Time) clause.Expr {
	if s.dialect == DialectPostgres {
		return gorm.Expr("CAST(EXTRACT(EPOCH FROM (CAST(? AS timestamptz) - "+column+")) * 1000 AS bigint)", t)
	}
	return gorm.Expr("CAST((julianday(?) - julianday("+column+")) * 86400000 AS INTEGER)", t)
}

// FailTriage marks a running triage as failed with the reason.
func (s *Store) FailTriage(ctx context.Context, triageID, reason string) error {
	now := Now()
	err := s.db.WithContext(ctx).Model(&Triage{}).
		Where("id = ? AND status = ?", triageID, TriageRunning).
		Updates(map[string]any{"status": TriageFailed, "error": reason, "completed_at": now}).Error
	if err != nil {
		return fmt.Errorf("fail triage: %w", err)
	}
	return nil
}
