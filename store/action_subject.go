package store

import (
	"context"
	"errors"
	"fmt"

	"gorm.io/gorm"
)

// policyIncidentColumns are the incident fields a policy decision reads.
const policyIncidentColumns = "i.id AS subject_id, i.incident_number AS subject_number, i.severity AS subject_severity, " +
	"i.incident_type AS subject_type, i.source AS subject_source, i.verdict AS subject_verdict"

// GetActionForDecision reads an action with the incident fields policy
// rules look at, in one statement; the incident is nil for an action
// outside any incident or whose incident is gone.
func (s *Store) GetActionForDecision(ctx context.Context, id string) (*Action, *Incident, error) {
	if err := checkID(id); err != nil {
		return nil, nil, err
	}
	var row struct {
		Action
		SubjectID       *string
		SubjectNumber   *string
		SubjectSeverity *string
		SubjectType     *string
		SubjectSource   *string
		SubjectVerdict  JSON[*Verdict]
	}
	err := s.db.WithContext(ctx).Table("actions AS a").Select("a.*, "+policyIncidentColumns).
		Joins("LEFT JOIN incidents AS i ON i.id = a.incident_id").Where("a.id = ?", id).Take(&row).Error
	if errors.Is(err, gorm.ErrRecordNotFound) {
		return nil, nil, ErrNotFound
	}
	if err != nil {
		return nil, nil, fmt.Errorf("read action: %w", err)
	}
	act := row.Action
	if row.SubjectID == nil {
		return &act, nil, nil
	}
	return &act, &Incident{ID: *row.SubjectID, IncidentNumber: deref(row.SubjectNumber), Severity: deref(row.SubjectSeverity),
		IncidentType: deref(row.SubjectType), Source: deref(row.SubjectSource), Verdict: row.SubjectVerdict}, nil
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}
