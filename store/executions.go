package store

import (
	"context"
	"fmt"
	"time"

	"gorm.io/gorm"
)

// Playbook execution statuses.
const (
	ExecutionRunning   = "running"
	ExecutionCompleted = "completed"
	ExecutionFailed    = "failed"
	ExecutionStopped   = "stopped"
)

// StepRecord is the recorded progress of one playbook step.
type StepRecord struct {
	Name        string         `json:"name"`
	Kind        string         `json:"kind"`
	Status      string         `json:"status"` // running, completed, failed, skipped, waiting
	StartedAt   *time.Time     `json:"started_at,omitempty"`
	CompletedAt *time.Time     `json:"completed_at,omitempty"`
	Output      map[string]any `json:"output,omitempty"`
	Error       string         `json:"error,omitempty"`
}

// PlaybookExecution is one run of one playbook version on one incident.
type PlaybookExecution struct {
	ID             string `gorm:"primaryKey"`
	PlaybookID     string
	PlaybookName   string
	Version        string
	IncidentID     string
	Status         string
	TriggeredBy    string
	AutoKey        *string
	Variables      JSON[map[string]any]
	Steps          JSON[[]StepRecord]
	StepsCompleted int
	StepsTotal     int
	Error          string
	WorkflowID     string
	StartedAt      time.Time
	CompletedAt    *time.Time
	DurationMS     int64 `gorm:"column:duration_ms"`

	// TriggeredByID is the user who started the run; empty for automated
	// runs. That user is the requester of every action the run requests.
	TriggeredByID string
}

// CreateExecution records a starting run. An automatic run carries an
// AutoKey; a second one for the same playbook and incident is ErrConflict.
func (s *Store) CreateExecution(ctx context.Context, e *PlaybookExecution) error {
	e.Status = ExecutionRunning
	e.StartedAt = Now()
	if e.Steps.V == nil {
		e.Steps = NewJSON([]StepRecord{})
	}
	if e.Variables.V == nil {
		e.Variables = NewJSON(map[string]any{})
	}
	if err := s.db.WithContext(ctx).Create(e).Error; err != nil {
		return fmt.Errorf("create playbook execution: %w", translate(err))
	}
	return nil
}

// GetExecution reads one run.
func (s *Store) GetExecution(ctx context.Context, id string) (*PlaybookExecution, error) {
	if err := checkID(id); err != nil {
		return nil, err
	}
	var e PlaybookExecution
	if err := s.db.WithContext(ctx).Take(&e, "id = ?", id).Error; err != nil {
		return nil, translate(err)
	}
	return &e, nil
}

// GetExecutionHead reads one run without its step records, which grow
// with the run: what a step needs to know about its run costs the same at
// step 1,000 as at step 1.
func (s *Store) GetExecutionHead(ctx context.Context, id string) (*PlaybookExecution, error) {
	if err := checkID(id); err != nil {
		return nil, err
	}
	var e PlaybookExecution
	if err := s.db.WithContext(ctx).Omit("steps").Take(&e, "id = ?", id).Error; err != nil {
		return nil, translate(err)
	}
	return &e, nil
}

// ListExecutions returns a playbook's runs, newest first.
func (s *Store) ListExecutions(ctx context.Context, playbookID string, limit int) ([]PlaybookExecution, error) {
	var out []PlaybookExecution
	err := s.db.WithContext(ctx).Where("playbook_id = ?", playbookID).
		Order("started_at DESC").Limit(limit).Find(&out).Error
	return out, err
}

// RecordExecutionProgress stores how many steps a running execution has
// finished.
func (s *Store) RecordExecutionProgress(ctx context.Context, id string, completed int) error {
	return s.db.WithContext(ctx).Model(&PlaybookExecution{}).Where("id = ? AND status = ?", id, ExecutionRunning).
		Update("steps_completed", completed).Error
}

// FinishExecution records how a run ended; a finished run stays finished.
func (s *Store) FinishExecution(ctx context.Context, id, status, reason string, steps []StepRecord, completed int) error {
	var e PlaybookExecution
	if err := s.db.WithContext(ctx).Omit("steps").Take(&e, "id = ?", id).Error; err != nil {
		return translate(err)
	}
	now := Now()
	return s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		res := tx.Model(&PlaybookExecution{}).Where("id = ? AND status = ?", id, ExecutionRunning).
			Updates(map[string]any{"status": status, "error": reason, "steps": NewJSON(steps), "steps_completed": completed,
				"completed_at": now, "duration_ms": now.Sub(e.StartedAt).Milliseconds()})
		if res.Error != nil || res.RowsAffected != 1 || status != ExecutionFailed {
			return res.Error
		}
		return recordIncidentEvent(tx, EventPlaybookRunFailed, e.IncidentID, map[string]any{
			"execution_id": e.ID, "playbook_id": e.PlaybookID, "playbook_name": e.PlaybookName, "error": reason,
		})
	})
}

// CheckpointExecution stores a running execution's step records and count
// of finished steps, so a run that continues as new resumes from what the
// store holds and never from its own input.
func (s *Store) CheckpointExecution(ctx context.Context, id string, steps []StepRecord, completed int) error {
	return s.db.WithContext(ctx).Model(&PlaybookExecution{}).Where("id = ? AND status = ?", id, ExecutionRunning).
		Updates(map[string]any{"steps": NewJSON(steps), "steps_completed": completed}).Error
}

// HandOverAction makes the workflow named to the owner of an action that
// the workflow named from owns and has not claimed: a playbook run hands an
// action that waits for approval to its own Action workflow. It reports
// false, and changes nothing, when from does not own the action, the
// action has been claimed, or it has ended.
func (s *Store) HandOverAction(ctx context.Context, id, from, to string) (bool, error) {
	res := s.db.WithContext(ctx).Model(&Action{}).
		Where("id = ? AND workflow_id = ? AND claimed_by = '' AND status IN ?", id, from, []string{ActionPending, ActionPendingApproval}).
		Updates(map[string]any{"workflow_id": to, "updated_at": Now()})
	if res.Error != nil {
		return false, fmt.Errorf("hand over action: %w", res.Error)
	}
	return res.RowsAffected == 1, nil
}
