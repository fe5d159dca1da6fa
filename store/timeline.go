package store

import (
	"context"
	"fmt"
)

// ListAuditForTargets returns up to limit audit events about any of the
// given targets, oldest first: what an incident's timeline reads about
// the incident and its actions.
func (s *Store) ListAuditForTargets(ctx context.Context, targets []string, limit int) ([]AuditEvent, error) {
	if len(targets) == 0 {
		return nil, nil
	}
	var out []AuditEvent
	err := s.db.WithContext(ctx).Where("target_id IN ?", targets).
		Order("occurred_at, id").Limit(limit).Find(&out).Error
	if err != nil {
		return nil, fmt.Errorf("list audit events by target: %w", err)
	}
	return out, nil
}

// ListIncidentExecutions returns up to limit playbook runs on an
// incident, newest first, without their step records.
func (s *Store) ListIncidentExecutions(ctx context.Context, incidentID string, limit int) ([]PlaybookExecution, error) {
	if err := checkID(incidentID); err != nil {
		return nil, err
	}
	var out []PlaybookExecution
	err := s.db.WithContext(ctx).Omit("steps", "variables").Where("incident_id = ?", incidentID).
		Order("started_at DESC, id DESC").Limit(limit).Find(&out).Error
	if err != nil {
		return nil, fmt.Errorf("list incident executions: %w", err)
	}
	return out, nil
}
