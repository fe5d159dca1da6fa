package store

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"gorm.io/gorm"
	"gorm.io/gorm/clause"
)

// Hunt run statuses.
const (
	HuntRunRunning   = "running"
	HuntRunCompleted = "completed"
	HuntRunFailed    = "failed"
)

// QueryResult is what one query of a run did.
type QueryResult struct {
	Index      int    `json:"index"`
	Name       string `json:"name"`
	Matches    int    `json:"matches"`
	Findings   int    `json:"findings"`
	BelowBase  bool   `json:"within_baseline"`
	Truncated  bool   `json:"truncated,omitempty"`
	Error      string `json:"error,omitempty"`
	DurationMs int64  `json:"duration_ms"`
	DataSource string `json:"data_source"`
	QueryType  string `json:"query_type"`
}

// HuntRun is one execution of a hunt over a time window.
type HuntRun struct {
	ID               string `gorm:"primaryKey"`
	HuntID           string
	WorkflowID       string
	RunTrigger       string
	Status           string
	WindowFrom       time.Time
	WindowTo         time.Time
	TotalFindings    int
	CriticalFindings int
	NewFindings      int
	QueryResults     JSON[[]QueryResult]
	Error            string
	DurationMs       int64
	StartedAt        time.Time
	CompletedAt      *time.Time
}

// HuntFinding is one matching row, deduplicated per hunt by fingerprint.
type HuntFinding struct {
	ID          string `gorm:"primaryKey"`
	HuntID      string
	RunID       string
	LastRunID   string
	QueryIndex  int
	QueryName   string
	Query       string
	Severity    string
	Fingerprint string
	Evidence    JSON[map[string]any]
	SeenCount   int
	IncidentID  string
	CreatedAt   time.Time
	LastSeenAt  time.Time
}

// New reports whether the finding was first seen in the given run.
func (f *HuntFinding) New(runID string) bool { return f.RunID == runID }

// startDefaults fills what a run being recorded leaves unset: it starts
// now, running.
func (r *HuntRun) startDefaults() {
	if r.StartedAt.IsZero() {
		r.StartedAt = Now()
	}
	if r.Status == "" {
		r.Status = HuntRunRunning
	}
}

// StartHuntRun records a run, or returns the one already recorded for the
// same workflow, so a retried start never makes two.
func (s *Store) StartHuntRun(ctx context.Context, r *HuntRun) (*HuntRun, error) {
	r.startDefaults()
	err := s.db.WithContext(ctx).Clauses(clause.OnConflict{DoNothing: true}).Create(r).Error
	if err != nil {
		return nil, fmt.Errorf("start hunt run: %w", translate(err))
	}
	var got HuntRun
	if err := s.db.WithContext(ctx).Take(&got, "workflow_id = ?", r.WorkflowID).Error; err != nil {
		return nil, translate(err)
	}
	return &got, nil
}

// StartHuntRunAlone records a run as StartHuntRun does, unless another
// run of the same hunt is still running: then it records nothing and
// answers that run as busy. Runs recorded as running but started before
// staleBefore are not counted (their workflow ended without recording an
// outcome). On PostgreSQL the hunt's row is locked for the check, so two
// starts at once cannot both pass it; SQLite transactions are serialized.
func (s *Store) StartHuntRunAlone(ctx context.Context, r *HuntRun, staleBefore time.Time) (run, busy *HuntRun, err error) {
	r.startDefaults()
	err = s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		q := tx
		if s.dialect == DialectPostgres {
			q = q.Clauses(clause.Locking{Strength: "UPDATE"})
		}
		if err := q.Select("id").Take(&Hunt{}, "id = ?", r.HuntID).Error; err != nil {
			return err
		}
		var found []HuntRun
		if err := tx.Where("hunt_id = ? AND (workflow_id = ? OR (status = ? AND started_at >= ?))",
			r.HuntID, r.WorkflowID, HuntRunRunning, staleBefore).Order("started_at").Find(&found).Error; err != nil {
			return err
		}
		for i := range found {
			if found[i].WorkflowID == r.WorkflowID {
				run = &found[i]
				return nil
			}
		}
		if len(found) > 0 {
			busy = &found[0]
			return nil
		}
		if err := tx.Create(r).Error; err != nil {
			return err
		}
		run = r
		return nil
	})
	if err != nil {
		return nil, nil, fmt.Errorf("start hunt run: %w", translate(err))
	}
	return run, busy, nil
}

// RunningHuntRuns returns the runs of a hunt recorded as running, oldest
// first.
func (s *Store) RunningHuntRuns(ctx context.Context, huntID string) ([]HuntRun, error) {
	var out []HuntRun
	err := s.db.WithContext(ctx).Where("hunt_id = ? AND status = ?", huntID, HuntRunRunning).Order("started_at").Find(&out).Error
	if err != nil {
		return nil, fmt.Errorf("running hunt runs: %w", err)
	}
	return out, nil
}

// GetHuntRun reads one run of a hunt.
func (s *Store) GetHuntRun(ctx context.Context, huntID, runID string) (*HuntRun, error) {
	var r HuntRun
	if err := s.db.WithContext(ctx).Take(&r, "id = ? AND hunt_id = ?", runID, huntID).Error; err != nil {
		return nil, translate(err)
	}
	return &r, nil
}

// ListHuntRuns returns the newest runs of a hunt first.
func (s *Store) ListHuntRuns(ctx context.Context, huntID string, limit int) ([]HuntRun, error) {
	var out []HuntRun
	err := s.db.WithContext(ctx).Where("hunt_id = ?", huntID).Order("started_at DESC").Order("id").Limit(limit).Find(&out).Error
	if err != nil {
		return nil, fmt.Errorf("list hunt runs: %w", err)
	}
	return out, nil
}

// FinishHuntRun records a run's outcome; a run already finished keeps its
// first outcome.
func (s *Store) FinishHuntRun(ctx context.Context, r *HuntRun) error {
	if err := finishRunRecord(s.db.WithContext(ctx), r, Now()); err != nil {
		return fmt.Errorf("finish hunt run: %w", err)
	}
	s.runs.ended(r.ID)
	return nil
}

// finishRunRecord writes a running run's outcome; a run already finished
// keeps its first one.
func finishRunRecord(db *gorm.DB, r *HuntRun, now time.Time) error {
	return db.Model(&HuntRun{}).Where("id = ? AND status = ?", r.ID, HuntRunRunning).
		Updates(map[string]any{"status": r.Status, "total_findings": r.TotalFindings,
			"critical_findings": r.CriticalFindings, "new_findings": r.NewFindings,
			"query_results": r.QueryResults, "error": r.Error, "duration_ms": r.DurationMs, "completed_at": now}).Error
}

// EndHuntRun records a run's outcome and moves its hunt, in one
// transaction: a completed run's window end (to) becomes the hunt's last
// success unless a later one is recorded, and a completed run ends an
// active on_demand hunt (completed); a failed run fails a hunt that asks
// for it (fail_hunt_on_error). The run's record is written last; a run
// already finished keeps its first outcome.
func (s *Store) EndHuntRun(ctx context.Context, huntID string, r *HuntRun, to time.Time) error {
	now := Now()
	err := s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		var err error
		switch r.Status {
		case HuntRunCompleted:
			err = tx.Model(&Hunt{}).Where("id = ? AND (last_success_to IS NULL OR last_success_to < ?)", huntID, to).
				Update("last_success_to", to).Error
			if err == nil {
				err = tx.Model(&Hunt{}).Where("id = ? AND hunt_type = ? AND status = ?", huntID, "on_demand", "active").
					Updates(map[string]any{"status": "completed", "updated_at": now}).Error
			}
		default:
			err = tx.Model(&Hunt{}).Where("id = ? AND fail_hunt_on_error = ?", huntID, true).Updates(map[string]any{"status": "failed", "updated_at": now}).Error
		}
		if err != nil {
			return err
		}
		return finishRunRecord(tx, r, now)
	})
	if err != nil {
		return fmt.Errorf("end hunt run: %w", err)
	}
	s.runs.ended(r.ID)
	return nil
}

// RecordFindings stores a run's findings: a fingerprint new to the hunt
// becomes a finding of this run; one seen before is counted on the
// existing finding and marked as seen again in this run. Recording the
// same run's findings twice (a retried activity) changes nothing more.
// It returns the findings as stored, in the order given.
func (s *Store) RecordFindings(ctx context.Context, huntID, runID string, in []HuntFinding) ([]HuntFinding, error) {
	out := make([]HuntFinding, 0, len(in))
	err := s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		var fresh []HuntFinding
		for i := range in {
			f := in[i]
			var cur HuntFinding
			err := tx.Take(&cur, "hunt_id = ? AND fingerprint = ?", huntID, f.Fingerprint).Error
			switch {
			case errors.Is(err, gorm.ErrRecordNotFound):
				now := Now()
				f.HuntID, f.RunID, f.LastRunID, f.SeenCount = huntID, runID, runID, 1
				f.CreatedAt, f.LastSeenAt = now, now
				if err := tx.Create(&f).Error; err != nil {
					return translate(err)
				}
				out = append(out, f)
				fresh = append(fresh, f)
			case err != nil:
				return err
			case cur.LastRunID == runID:
				out = append(out, cur)
			default:
				cur.LastRunID, cur.SeenCount, cur.LastSeenAt = runID, cur.SeenCount+1, Now()
				if err := tx.Model(&HuntFinding{}).Where("id = ?", cur.ID).Updates(map[string]any{
					"last_run_id": cur.LastRunID, "seen_count": cur.SeenCount, "last_seen_at": cur.LastSeenAt,
				}).Error; err != nil {
					return err
				}
				out = append(out, cur)
			}
		}
		return recordHuntFindingEvent(tx, huntID, runID, fresh)
	})
	if err != nil {
		return nil, fmt.Errorf("record hunt findings: %w", err)
	}
	return out, nil
}

// ListRunFindings returns the findings a run produced or saw again.
func (s *Store) ListRunFindings(ctx context.Context, runID string) ([]HuntFinding, error) {
	var out []HuntFinding
	if err := s.db.WithContext(ctx).Where("last_run_id = ?", runID).Order("query_index").Order("created_at").Order("id").Find(&out).Error; err != nil {
		return nil, fmt.Errorf("list hunt findings: %w", err)
	}
	return out, nil
}

// GetHuntFinding reads one finding of a hunt.
func (s *Store) GetHuntFinding(ctx context.Context, huntID, id string) (*HuntFinding, error) {
	var f HuntFinding
	if err := s.db.WithContext(ctx).Take(&f, "id = ? AND hunt_id = ?", id, huntID).Error; err != nil {
		return nil, translate(err)
	}
	return &f, nil
}

// PromoteFinding creates the incident for a finding, once: the finding is
// claimed in the same transaction that inserts the incident, so promoting
// it again (or twice at once) returns the first incident. created reports
// whether this call made it.
func (s *Store) PromoteFinding(ctx context.Context, huntID, findingID string, in NewIncident) (inc *Incident, created bool, err error) {
	err = s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		var f HuntFinding
		if err := tx.Take(&f, "id = ? AND hunt_id = ?", findingID, huntID).Error; err != nil {
			return translate(err)
		}
		if f.IncidentID != "" {
			return nil
		}
		made, err := s.createIncidentTx(tx, in, func(*Incident) {})
		if err != nil {
			return err
		}
		res := tx.Model(&HuntFinding{}).Where("id = ? AND incident_id = ''", f.ID).Update("incident_id", made.ID)
		if res.Error != nil {
			return res.Error
		}
		if res.RowsAffected == 0 {
			return ErrConflict
		}
		inc, created = made, true
		return nil
	})
	if errors.Is(err, ErrConflict) || (err == nil && inc == nil) {
		f, ferr := s.GetHuntFinding(ctx, huntID, findingID)
		if ferr != nil {
			return nil, false, ferr
		}
		inc, err = s.GetIncident(ctx, f.IncidentID)
		return inc, false, err
	}
	if err != nil {
		return nil, false, fmt.Errorf("promote finding: %w", err)
	}
	return inc, created, nil
}

// jsonQuoted renders s as a JSON string literal.
func jsonQuoted(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
