package store

import (
	"context"
	"errors"
	"fmt"

	"gorm.io/gorm"

	"github.com/vigil-soc/vigil/workflows/workflowid"
)

// queueTriages queues the automated triage of new incidents: each queue
// entry is written with the run's record, running under the entry's id, in
// the transaction that creates the incident. The dispatcher then only
// starts the run's workflow, with no transaction of its own, and a triage
// requested meanwhile joins the queued run instead of starting another.
func queueTriages(tx *gorm.DB, entries []*IntakeItem) error {
	if len(entries) == 0 {
		return nil
	}
	runs := make([]*Triage, len(entries))
	for i, it := range entries {
		runs[i] = &Triage{ID: it.ID, IncidentID: it.IncidentID, WorkflowID: workflowid.Triage(it.IncidentID, it.ID),
			Status: TriageRunning, RequestedBy: QueuedTriageRequester(it.Source), StartedAt: it.CreatedAt,
			RecommendedActions: NewJSON([]string{})}
	}
	if err := tx.Create(entries).Error; err != nil {
		return err
	}
	return tx.Create(runs).Error
}

// QueuedTriageRequester names who requested a triage queued by a webhook
// source.
func QueuedTriageRequester(source string) string { return "webhook:" + source }

// QueuedTriage is the run record of a queued triage with its incident's
// list columns.
type QueuedTriage struct {
	Triage   Triage
	Incident Incident
}

// GetQueuedTriage reads the run record a queue entry was written with and
// its incident in one statement. ErrNotFound means there is none: the
// entry was queued before runs were recorded with their entries, or the
// incident is gone.
func (s *Store) GetQueuedTriage(ctx context.Context, triageID string) (*QueuedTriage, error) {
	if err := checkID(triageID); err != nil {
		return nil, err
	}
	var row struct {
		TriageStatus     string
		TriageWorkflowID string
		TriageRequester  string
		Incident
	}
	err := s.db.WithContext(ctx).Table("triages AS t").
		Select("t.status AS triage_status, t.workflow_id AS triage_workflow_id, t.requested_by AS triage_requester, "+
			"i.id, i.incident_number, i.title, i.incident_type, i.severity, i.status, i.source, i.created_at, i.updated_at, i.triaged_at").
		Joins("JOIN incidents AS i ON i.id = t.incident_id").
		Where("t.id = ?", triageID).Take(&row).Error
	if errors.Is(err, gorm.ErrRecordNotFound) {
		return nil, ErrNotFound
	}
	if err != nil {
		return nil, fmt.Errorf("read queued triage: %w", err)
	}
	return &QueuedTriage{
		Triage: Triage{ID: triageID, IncidentID: row.Incident.ID, WorkflowID: row.TriageWorkflowID,
			Status: row.TriageStatus, RequestedBy: row.TriageRequester},
		Incident: row.Incident,
	}, nil
}
