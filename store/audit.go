package store

import (
	"context"
	"fmt"
	"time"

	"github.com/google/uuid"
)

// Audit outcomes.
const (
	OutcomeSuccess = "success"
	OutcomeFailure = "failure"
	OutcomeDenied  = "denied"
)

// AuditEvent is one append-only record of something a principal did or
// tried to do. It never holds a secret.
type AuditEvent struct {
	ID         string               `gorm:"primaryKey" json:"id"`
	OccurredAt time.Time            `json:"occurred_at"`
	ActorID    string               `json:"actor_id"`
	Actor      string               `json:"actor"`
	AuthMethod string               `json:"auth_method"`
	Action     string               `json:"action"`
	TargetType string               `json:"target_type"`
	TargetID   string               `json:"target_id"`
	Outcome    string               `json:"outcome"`
	Status     int                  `json:"status"`
	ClientIP   string               `gorm:"column:client_ip" json:"client_ip"`
	Details    JSON[map[string]any] `json:"details"`
}

// RecordAudit appends an event.
func (s *Store) RecordAudit(ctx context.Context, e *AuditEvent) error {
	if e.ID == "" {
		e.ID = uuid.NewString()
	}
	if e.OccurredAt.IsZero() {
		e.OccurredAt = Now()
	}
	if e.Details.V == nil {
		e.Details = NewJSON(map[string]any{})
	}
	if err := s.db.WithContext(ctx).Create(e).Error; err != nil {
		return fmt.Errorf("record audit event: %w", err)
	}
	return nil
}

// AuditFilter selects a page of audit events, newest first.
type AuditFilter struct {
	Actor    string
	Action   string
	Outcome  string
	TargetID string
	Since    *time.Time
	Until    *time.Time
	Page     int
	PerPage  int
}

// ListAudit returns one page of events and the total matching count.
func (s *Store) ListAudit(ctx context.Context, f AuditFilter) ([]AuditEvent, int64, error) {
	q := s.db.WithContext(ctx).Model(&AuditEvent{}).Session(&gormSession)
	if f.Actor != "" {
		q = q.Where("actor = ?", f.Actor)
	}
	if f.Action != "" {
		q = q.Where("action = ?", f.Action)
	}
	if f.Outcome != "" {
		q = q.Where("outcome = ?", f.Outcome)
	}
	if f.TargetID != "" {
		q = q.Where("target_id = ?", f.TargetID)
	}
	if f.Since != nil {
		q = q.Where("occurred_at >= ?", f.Since.UTC())
	}
	if f.Until != nil {
		q = q.Where("occurred_at < ?", f.Until.UTC())
	}
	var total int64
	if err := q.Count(&total).Error; err != nil {
		return nil, 0, fmt.Errorf("count audit events: %w", err)
	}
	var events []AuditEvent
	err := q.Order("occurred_at DESC, id DESC").Limit(f.PerPage).Offset((f.Page - 1) * f.PerPage).Find(&events).Error
	if err != nil {
		return nil, 0, fmt.Errorf("list audit events: %w", err)
	}
	return events, total, nil
}
