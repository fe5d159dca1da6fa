package store

import (
	"context"
	"fmt"
	"time"
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
	if err := s.db.WithContext(ctx).Take(&e, "id = ?", id).Error; err != nil {
		return translate(err)
	}
	now := Now()
	return s.db.WithContext(ctx).Model(&PlaybookExecution{}).Where("id = ? AND status = ?", id, ExecutionRunning).
		Updates(map[string]any{"status": status, "error": reason, "steps": NewJSON(steps), "steps_completed": completed,
			"completed_at": now, "duration_ms": now.Sub(e.StartedAt).Milliseconds()}).Error
}
