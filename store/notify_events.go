package store

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/google/uuid"
	"gorm.io/gorm"
)

// EventType names something that happened which channels may subscribe to.
type EventType string

// Event types. A new one is added here and to EventTypes; nothing else
// lists them.
const (
	EventIncidentCreated       EventType = "incident_created"
	EventIncidentUpdated       EventType = "incident_updated"
	EventIncidentResolved      EventType = "incident_resolved"
	EventTriageCompleted       EventType = "triage_completed"
	EventActionPendingApproval EventType = "action_pending_approval"
	EventActionCompleted       EventType = "action_completed"
	EventActionFailed          EventType = "action_failed"
	EventKillSwitchActivated   EventType = "kill_switch_activated"
	EventKillSwitchDeactivated EventType = "kill_switch_deactivated"
	EventPlaybookRunFailed     EventType = "playbook_run_failed"
	EventHuntFinding           EventType = "hunt_finding"
)

// EventTypes lists every event type channels may subscribe to.
var EventTypes = []EventType{
	EventIncidentCreated, EventIncidentUpdated, EventIncidentResolved, EventTriageCompleted,
	EventActionPendingApproval, EventActionCompleted, EventActionFailed,
	EventKillSwitchActivated, EventKillSwitchDeactivated, EventPlaybookRunFailed, EventHuntFinding,
}

// ValidEventType reports whether name is a known event type.
func ValidEventType(name string) bool {
	for _, e := range EventTypes {
		if string(e) == name {
			return true
		}
	}
	return false
}

// Outbox event statuses.
const (
	EventQueued = "queued"
	EventRouted = "routed"
)

// NotificationEvent is one outbox row: an event recorded in the
// transaction of the change that caused it.
type NotificationEvent struct {
	Seq        int64 `gorm:"primaryKey;autoIncrement"`
	ID         string
	EventType  string
	IncidentID string
	Severity   string
	Source     string
	Data       JSON[map[string]any]
	Status     string
	CreatedAt  time.Time
	RoutedAt   *time.Time
}

// notifying reports whether any channel is enabled: while none is, no
// event is recorded (no channel could receive it) and nothing is read to
// build one. A new incident is also recorded while an active triggered
// hunt exists, since the relay starts those hunts from the event.
func notifying(tx *gorm.DB, typ EventType) (bool, error) {
	// One round trip whichever applies: this runs in every incident's
	// creating transaction.
	expr, args := consumersExpr(typ)
	var on bool
	if err := tx.Raw("SELECT "+expr, args...).Scan(&on).Error; err != nil {
		return false, fmt.Errorf("look for event consumers: %w", err)
	}
	return on, nil
}

// consumersExpr is the SQL expression notifying evaluates, with its
// arguments, so a statement the transaction makes anyway can answer it too.
func consumersExpr(typ EventType) (string, []any) {
	expr := `EXISTS (SELECT 1 FROM notification_channels WHERE enabled = ?)`
	args := []any{true}
	if typ == EventIncidentCreated {
		expr += ` OR EXISTS (SELECT 1 FROM hunts WHERE status = ? AND hunt_type = ? AND enabled = ?)`
		args = append(args, "active", "triggered", true)
	}
	return expr, args
}

// recordEvent adds an event to the outbox inside tx while any channel is
// enabled.
func recordEvent(tx *gorm.DB, typ EventType, inc *Incident, data map[string]any) error {
	if on, err := notifying(tx, typ); err != nil || !on {
		return err
	}
	return insertEvent(tx, typ, inc, data)
}

// recordCreatedEvents adds an incident_created event for each of incs, in
// one insert, while any channel is enabled: a batch of new incidents is
// announced in the transaction that creates it, like a single one.
func recordCreatedEvents(tx *gorm.DB, incs []*Incident) error {
	if on, err := notifying(tx, EventIncidentCreated); err != nil || !on || len(incs) == 0 {
		return err
	}
	events := make([]*NotificationEvent, 0, len(incs))
	for _, inc := range incs {
		events = append(events, newEvent(EventIncidentCreated, inc, nil))
	}
	return tx.Create(events).Error
}

func insertEvent(tx *gorm.DB, typ EventType, inc *Incident, data map[string]any) error {
	return tx.Create(newEvent(typ, inc, data)).Error
}

// newEvent builds an outbox event; one about an incident carries the
// incident's fields under data's own.
func newEvent(typ EventType, inc *Incident, data map[string]any) *NotificationEvent {
	if data == nil {
		data = map[string]any{}
	}
	ev := &NotificationEvent{ID: uuid.NewString(), EventType: string(typ), Status: EventQueued, CreatedAt: Now()}
	if inc != nil {
		ev.IncidentID, ev.Severity, ev.Source = inc.ID, inc.Severity, inc.Source
		for k, v := range IncidentEventData(inc) {
			if _, set := data[k]; !set {
				data[k] = v
			}
		}
	}
	ev.Data = NewJSON(data)
	return ev
}

// IncidentEventData is what every event about an incident carries.
func IncidentEventData(inc *Incident) map[string]any {
	return map[string]any{
		"incident_id": inc.ID, "incident_number": inc.IncidentNumber, "title": inc.Title,
		"severity": inc.Severity, "status": inc.Status, "source": inc.Source,
		"incident_type": inc.IncidentType, "description": inc.Description,
		"created_at": inc.CreatedAt.Format(time.RFC3339),
	}
}

// recordIncidentEvent loads the incident (when id is set) and records the
// event inside tx.
func recordIncidentEvent(tx *gorm.DB, typ EventType, incidentID string, data map[string]any) error {
	if on, err := notifying(tx, typ); err != nil || !on {
		return err
	}
	return incidentEvent(tx, typ, incidentID, data)
}

func incidentEvent(tx *gorm.DB, typ EventType, incidentID string, data map[string]any) error {
	if incidentID == "" {
		return insertEvent(tx, typ, nil, data)
	}
	var inc Incident
	err := tx.Omit("raw_data").Take(&inc, "id = ?", incidentID).Error
	if errors.Is(err, gorm.ErrRecordNotFound) {
		return insertEvent(tx, typ, nil, data)
	}
	if err != nil {
		return err
	}
	return insertEvent(tx, typ, &inc, data)
}

// actionEvent records an event about an action and its incident; the
// caller knows the event has a consumer (see updateNotifying).
func actionEvent(tx *gorm.DB, typ EventType, id string, extra map[string]any) error {
	var a Action
	if err := tx.Take(&a, "id = ?", id).Error; err != nil {
		return err
	}
	data := map[string]any{
		"action_id": a.ID, "action_type": a.ActionType, "action_status": a.Status,
		"approval_level": a.ApprovalLevel, "requested_by": a.RequestedBy,
	}
	for k, v := range extra {
		data[k] = v
	}
	incidentID := ""
	if a.IncidentID != nil {
		incidentID = *a.IncidentID
	}
	return incidentEvent(tx, typ, incidentID, data)
}

// QueuedEvents returns up to limit outbox events not yet routed, oldest first.
func (s *Store) QueuedEvents(ctx context.Context, limit int) ([]NotificationEvent, error) {
	var out []NotificationEvent
	err := s.db.WithContext(ctx).Where("status = ?", EventQueued).Order("seq").Limit(limit).Find(&out).Error
	if err != nil {
		return nil, fmt.Errorf("read notification outbox: %w", err)
	}
	return out, nil
}

// GetEvent reads one outbox event.
func (s *Store) GetEvent(ctx context.Context, id string) (*NotificationEvent, error) {
	var ev NotificationEvent
	if err := s.db.WithContext(ctx).Take(&ev, "id = ?", id).Error; err != nil {
		return nil, translate(err)
	}
	return &ev, nil
}

// MarkEventRouted records that an event's deliveries exist.
func (s *Store) MarkEventRouted(ctx context.Context, seq int64) error {
	return s.db.WithContext(ctx).Model(&NotificationEvent{}).Where("seq = ?", seq).
		Updates(map[string]any{"status": EventRouted, "routed_at": Now()}).Error
}

// RecordEvent adds an event that no store change causes (a test message).
func (s *Store) RecordEvent(ctx context.Context, typ EventType, data map[string]any) (*NotificationEvent, error) {
	ev := &NotificationEvent{ID: uuid.NewString(), EventType: string(typ), Status: EventRouted, CreatedAt: Now(),
		Data: NewJSON(data)}
	now := Now()
	ev.RoutedAt = &now
	if err := s.db.WithContext(ctx).Create(ev).Error; err != nil {
		return nil, fmt.Errorf("record event: %w", err)
	}
	return ev, nil
}

// recordHuntFindingEvent announces a run's new findings in one event
// carrying the highest severity among them, so a hunt that matches fifty
// rows pages once, not fifty times.
func recordHuntFindingEvent(tx *gorm.DB, huntID, runID string, fresh []HuntFinding) error {
	if len(fresh) == 0 {
		return nil
	}
	if on, err := notifying(tx, EventHuntFinding); err != nil || !on {
		return err
	}
	var h Hunt
	if err := tx.Select("id", "name").Take(&h, "id = ?", huntID).Error; err != nil {
		return err
	}
	worst, ids := fresh[0].Severity, make([]string, 0, min(len(fresh), 10))
	for _, f := range fresh {
		if severityRank(f.Severity) > severityRank(worst) {
			worst = f.Severity
		}
		if len(ids) < cap(ids) {
			ids = append(ids, f.ID)
		}
	}
	ev := newEvent(EventHuntFinding, nil, map[string]any{"hunt_id": huntID, "hunt_name": h.Name, "run_id": runID,
		"new_findings": len(fresh), "severity": worst, "finding_ids": ids, "title": "hunt " + h.Name})
	ev.Severity, ev.Source = worst, "hunt"
	return tx.Create(ev).Error
}

func severityRank(s string) int {
	switch s {
	case "critical":
		return 4
	case "high":
		return 3
	case "medium":
		return 2
	case "low":
		return 1
	}
	return 0
}
