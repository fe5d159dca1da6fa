package notify

import (
	"fmt"
	"strings"
	"time"

	"github.com/vigil-soc/vigil/store"
)

// Message is what every sender renders: an event with its incident,
// links and the stable delivery id.
type Message struct {
	DeliveryID     string
	Event          string
	Title          string
	Text           string
	Severity       string
	IncidentID     string
	IncidentNumber string
	IncidentStatus string
	Source         string
	// Link opens the incident (dashboard, or the API path without
	// VIGIL_PUBLIC_URL); ApprovalLink opens the approval page.
	Link         string
	ApprovalLink string
	Data         map[string]any
	Timestamp    time.Time
}

// Links builds the addresses messages point to.
type Links struct {
	// PublicURL is VIGIL_PUBLIC_URL; empty means API paths only.
	PublicURL string
}

func (l Links) incident(id string) string {
	if id == "" {
		return ""
	}
	if l.PublicURL == "" {
		return "/api/incidents/" + id
	}
	return l.PublicURL + "/incidents/" + id
}

func (l Links) hunt(huntID string) string {
	if l.PublicURL == "" {
		return "/api/v1/hunts/" + huntID
	}
	return l.PublicURL + "/hunts/" + huntID
}

func (l Links) approval(actionID string) string {
	if l.PublicURL == "" {
		return "/api/actions/" + actionID
	}
	return l.PublicURL + "/approvals"
}

// NewMessage renders an event for delivery d.
func NewMessage(ev *store.NotificationEvent, d *store.NotificationDelivery, links Links) *Message {
	data := ev.Data.V
	if data == nil {
		data = map[string]any{}
	}
	str := func(k string) string { s, _ := data[k].(string); return s }
	m := &Message{DeliveryID: d.ID, Event: ev.EventType, Severity: ev.Severity, IncidentID: ev.IncidentID,
		IncidentNumber: str("incident_number"), IncidentStatus: str("status"), Source: ev.Source, Data: data,
		Timestamp: ev.CreatedAt, Link: links.incident(ev.IncidentID)}
	subject := strings.TrimSpace(m.IncidentNumber + " " + str("title"))
	switch store.EventType(ev.EventType) {
	case store.EventIncidentCreated:
		m.Title, m.Text = "New incident: "+subject, str("description")
	case store.EventIncidentUpdated:
		m.Title, m.Text = "Incident updated: "+subject, "Status: "+m.IncidentStatus
	case store.EventIncidentResolved:
		m.Title, m.Text = "Incident resolved: "+subject, "Status: "+m.IncidentStatus
	case store.EventTriageCompleted:
		m.Title = "Triage completed: " + subject
		m.Text = fmt.Sprintf("Verdict: %s (confidence %v)", str("classification"), data["confidence"])
	case store.EventActionPendingApproval:
		m.ApprovalLink = links.approval(str("action_id"))
		m.Title = fmt.Sprintf("Approval needed: %s on %s", str("action_type"), subject)
		m.Text = fmt.Sprintf("Action %s (%s) requested by %s needs approval at level %s.\nApprove or reject: %s",
			str("action_type"), str("action_id"), str("requested_by"), str("approval_level"), m.ApprovalLink)
	case store.EventActionCompleted:
		m.Title = fmt.Sprintf("Action completed: %s on %s", str("action_type"), subject)
	case store.EventActionFailed:
		m.Title = fmt.Sprintf("Action failed: %s on %s", str("action_type"), subject)
	case store.EventKillSwitchActivated:
		m.Title, m.Text = "Kill switch activated", fmt.Sprintf("By %s: %s", str("changed_by"), str("reason"))
	case store.EventKillSwitchDeactivated:
		m.Title, m.Text = "Kill switch deactivated", fmt.Sprintf("By %s: %s", str("changed_by"), str("reason"))
	case store.EventPlaybookRunFailed:
		m.Title = fmt.Sprintf("Playbook %s failed on %s", str("playbook_name"), subject)
		m.Text = str("error")
	case store.EventHuntFinding:
		m.Title = fmt.Sprintf("Hunt %s: %v new finding(s)", str("hunt_name"), data["new_findings"])
		m.Text = "Highest severity: " + str("severity")
		m.Link = links.hunt(str("hunt_id"))
	case store.EventTest:
		m.Title, m.Text = "Vigil test notification", str("message")
	default:
		m.Title = ev.EventType + ": " + subject
	}
	return m
}

// Result is the outcome of one attempt to send.
type Result struct {
	ProviderStatus int
	Err            error
	// Retryable says a later attempt may succeed; RetryAfter is the
	// vendor's requested wait (Retry-After), if any.
	Retryable  bool
	RetryAfter time.Duration
}

func ok(status int) Result { return Result{ProviderStatus: status} }

func permanent(status int, format string, args ...any) Result {
	return Result{ProviderStatus: status, Err: fmt.Errorf(format, args...)}
}

func transient(status int, err error) Result {
	return Result{ProviderStatus: status, Err: err, Retryable: true}
}
