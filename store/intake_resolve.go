package store

import (
	"context"
	"errors"
	"fmt"

	"github.com/google/uuid"
	"gorm.io/gorm"
)

// AlertResolution is an upstream alert's notice that it has ended.
type AlertResolution struct {
	ExternalSource string
	ExternalID     string
	// Note is recorded on the incident's timeline, and as its resolution
	// when it has none yet; a note already recorded is not recorded twice.
	Note string
	// SetResolved also moves the incident to status resolved.
	SetResolved bool
}

// ResolveAlertIncident applies a resolution to the newest incident of the
// upstream alert, whatever its age: an alert may fire for days. It
// answers the incident and whether anything changed (false for a repeated
// notice), or ErrNotFound when the alert never made an incident.
func (s *Store) ResolveAlertIncident(ctx context.Context, r AlertResolution) (*Incident, bool, error) {
	if r.ExternalID == "" {
		return nil, false, ErrNotFound
	}
	var (
		inc     Incident
		changed bool
	)
	err := s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		if s.dialect == DialectPostgres {
			// The same lock as a firing alert of this id takes.
			if err := tx.Exec("SELECT pg_advisory_xact_lock(hashtext(?))", r.ExternalSource+"\n"+r.ExternalID).Error; err != nil {
				return err
			}
		}
		err := tx.Where("external_source = ? AND external_id = ?", r.ExternalSource, r.ExternalID).
			Order("created_at DESC").Take(&inc).Error
		if err != nil {
			return err
		}
		var earlier []AuditEvent
		if err := tx.Where("target_id = ? AND action = ?", inc.ID, AuditAlertResolved).
			Limit(maxResolutionNotes).Find(&earlier).Error; err != nil {
			return err
		}
		for _, e := range earlier {
			if e.Details.V["note"] == r.Note {
				return nil
			}
		}
		changed = true
		return s.applyResolution(tx, &inc, r)
	})
	if errors.Is(err, gorm.ErrRecordNotFound) {
		return nil, false, ErrNotFound
	}
	if err != nil {
		return nil, false, fmt.Errorf("resolve alert incident: %w", translate(err))
	}
	return &inc, changed, nil
}

// maxResolutionNotes bounds the earlier notes a resolution is compared
// with; an alert that flaps more often than that is noted again.
const maxResolutionNotes = 100

// AuditAlertResolved is the audit action that records an upstream alert's
// resolution on its incident's timeline.
const AuditAlertResolved = "incident.alert_resolved"

func (s *Store) applyResolution(tx *gorm.DB, inc *Incident, r AlertResolution) error {
	now, before := Now(), inc.Status
	changes := map[string]any{"updated_at": now}
	if inc.Resolution == "" {
		changes["resolution"] = r.Note
	}
	if r.SetResolved && inc.Status != StatusResolved {
		changes["status"] = StatusResolved
	}
	if err := changeIncident(tx, inc.ID, before, changes, inc); err != nil {
		return err
	}
	return tx.Create(&AuditEvent{ID: uuid.NewString(), OccurredAt: now, Actor: "webhook:" + r.ExternalSource, AuthMethod: "webhook",
		Action: AuditAlertResolved, TargetType: "incident", TargetID: inc.ID, Outcome: OutcomeSuccess, Status: 200,
		Details: NewJSON(map[string]any{"note": r.Note, "external_id": r.ExternalID, "status": inc.Status, "previous_status": before})}).Error
}
