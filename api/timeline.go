package api

import (
	"cmp"
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/vigil-soc/vigil/policy"
	"github.com/vigil-soc/vigil/store"
)

// Bounds of one incident's timeline; an incident with more history shows
// its oldest entries up to them.
const (
	timelineMaxActions = 500
	timelineMaxAudit   = 500
	timelineMaxRuns    = 100
)

// Timeline entry kinds.
const (
	entryIncident = "incident"
	entryAudit    = "audit"
	entryTriage   = "triage"
	entryAction   = "action"
	entryRun      = "playbook_run"
)

// timelineEntry is one thing that happened to an incident.
type timelineEntry struct {
	At         time.Time      `json:"at"`
	Kind       string         `json:"kind"`
	Event      string         `json:"event"`
	Actor      string         `json:"actor,omitempty"`
	Summary    string         `json:"summary"`
	Outcome    string         `json:"outcome,omitempty"`
	Ref        string         `json:"ref,omitempty"`
	WorkflowID string         `json:"workflow_id,omitempty"`
	Details    map[string]any `json:"details,omitempty"`
}

// recordedAudit are the audit actions whose successes the incident's own
// records (incident, triages, actions) already tell, with more detail;
// their refusals and failures only the audit trail holds.
var recordedAudit = []string{"incident.create", "incident.triage", "action.request", "action.approve", "action.reject", "action.rollback"}

// incidentTimeline answers everything that happened to an incident,
// oldest first: its creation, triages, actions and their decisions,
// playbook runs, and the audit trail's entries about it and its actions.
func (s *server) incidentTimeline(c *gin.Context) (reply, error) {
	inc, err := s.store.GetIncident(c, c.Param("id"))
	if err != nil {
		return reply{}, orNotFound(err, incidentNotFound)
	}
	actions, err := s.store.ListActions(c, store.ActionFilter{IncidentID: inc.ID, Limit: timelineMaxActions})
	if err != nil {
		return reply{}, err
	}
	triages, err := s.store.ListTriages(c, inc.ID, maxTriageHistory)
	if err != nil {
		return reply{}, err
	}
	runs, err := s.store.ListIncidentExecutions(c, inc.ID, timelineMaxRuns)
	if err != nil {
		return reply{}, err
	}
	targets := []string{inc.ID}
	for i := range actions {
		targets = append(targets, actions[i].ID)
	}
	audit, err := s.store.ListAuditForTargets(c, targets, timelineMaxAudit)
	if err != nil {
		return reply{}, err
	}
	out := []timelineEntry{{At: inc.CreatedAt.UTC(), Kind: entryIncident, Event: "created", Actor: inc.CreatedBy,
		Summary: fmt.Sprintf("%s created from %s with severity %s", inc.IncidentNumber, inc.Source, inc.Severity)}}
	for i := range triages {
		out = append(out, triageEntries(&triages[i])...)
	}
	for i := range actions {
		out = append(out, actionEntries(&actions[i])...)
	}
	for i := range runs {
		out = append(out, runEntries(&runs[i])...)
	}
	for i := range audit {
		if e, ok := auditEntry(&audit[i]); ok {
			out = append(out, e)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].At.Before(out[j].At) })
	return ok(out), nil
}

func triageEntries(t *store.Triage) []timelineEntry {
	out := []timelineEntry{{At: t.StartedAt.UTC(), Kind: entryTriage, Event: "started", Actor: t.RequestedBy,
		Summary: "Triage started", Ref: t.ID, WorkflowID: t.WorkflowID}}
	if t.CompletedAt == nil {
		return out
	}
	end := timelineEntry{At: t.CompletedAt.UTC(), Kind: entryTriage, Event: t.Status, Ref: t.ID, WorkflowID: t.WorkflowID}
	switch v := t.Verdict.V; {
	case t.Status == store.TriageCompleted && v != nil:
		end.Summary = fmt.Sprintf("Verdict: %s (%.0f%% confidence, %s)", v.Classification, v.Confidence*100, v.Category)
		if recs := t.RecommendedActions.V; len(recs) > 0 {
			end.Summary += "; recommends " + strings.Join(recs, ", ")
		}
	case t.Error != "":
		end.Summary = "Triage " + t.Status + ": " + t.Error
	default:
		end.Summary = "Triage " + t.Status
	}
	return append(out, end)
}

func actionEntries(a *store.Action) []timelineEntry {
	base := timelineEntry{Kind: entryAction, Ref: a.ID, WorkflowID: a.WorkflowID,
		Details: map[string]any{"action_type": a.ActionType}}
	at := func(t time.Time, event, actor, summary string) timelineEntry {
		e := base
		e.At, e.Event, e.Actor, e.Summary = t.UTC(), event, actor, summary
		return e
	}
	name := a.ActionType
	if a.RollbackOf != "" {
		name += " (rollback)"
	}
	req := "Requested " + name
	if a.ApprovalLevel != "" && a.Decision == policy.OutcomeRequireApproval {
		req += "; needs " + a.ApprovalLevel + " approval"
	}
	out := []timelineEntry{at(a.RequestedAt, "requested", a.RequestedBy, req)}
	if a.ApprovedAt != nil {
		msg := "Approved " + name
		if a.ApprovalComment != "" {
			msg += ": " + a.ApprovalComment
		}
		out = append(out, at(*a.ApprovedAt, "approved", a.ApprovedBy, msg))
	}
	if a.RejectedAt != nil {
		out = append(out, at(*a.RejectedAt, "rejected", a.RejectedBy, "Rejected "+name+": "+a.RejectionReason))
	}
	if a.ExecutedAt != nil {
		msg := name + " " + a.Status
		if r := a.Result.V; r != nil && r.Message != "" {
			msg += ": " + r.Message
		} else if a.Error != "" {
			msg += ": " + a.Error
		}
		out = append(out, at(*a.ExecutedAt, a.Status, a.ExecutedBy, msg))
	}
	return out
}

func runEntries(e *store.PlaybookExecution) []timelineEntry {
	base := timelineEntry{Kind: entryRun, Ref: e.ID, WorkflowID: e.WorkflowID,
		Details: map[string]any{"playbook_id": e.PlaybookID, "playbook_name": e.PlaybookName}}
	start := base
	start.At, start.Event, start.Actor = e.StartedAt.UTC(), "started", e.TriggeredBy
	start.Summary = fmt.Sprintf("Playbook %q (version %s) started", e.PlaybookName, e.Version)
	out := []timelineEntry{start}
	if e.CompletedAt != nil {
		end := base
		end.At, end.Event = e.CompletedAt.UTC(), e.Status
		end.Summary = fmt.Sprintf("Playbook %q %s after %d of %d steps", e.PlaybookName, e.Status, e.StepsCompleted, e.StepsTotal)
		if e.Error != "" {
			end.Summary += ": " + e.Error
		}
		out = append(out, end)
	}
	return out
}

// auditEntry turns an audit event into an entry, unless a record tells
// the same success.
func auditEntry(ev *store.AuditEvent) (timelineEntry, bool) {
	if ev.Outcome == store.OutcomeSuccess && slices.Contains(recordedAudit, ev.Action) {
		return timelineEntry{}, false
	}
	e := timelineEntry{At: ev.OccurredAt.UTC(), Kind: entryAudit, Event: ev.Action, Actor: ev.Actor,
		Outcome: ev.Outcome, Ref: ev.TargetID, Details: ev.Details.V}
	e.Summary = auditSummary(ev)
	return e, true
}

func auditSummary(ev *store.AuditEvent) string {
	what := strings.ReplaceAll(ev.Action, "_", " ")
	if ev.Action == "incident.update" && ev.Outcome == store.OutcomeSuccess {
		var parts []string
		for _, k := range []string{"status", "severity", "assignee"} {
			if v, ok := ev.Details.V[k]; ok {
				parts = append(parts, fmt.Sprintf("%s to %v", k, cmp.Or(fmt.Sprint(v), "nobody")))
			}
		}
		if ev.Details.V["resolution_changed"] == true {
			parts = append(parts, "the resolution")
		}
		if len(parts) > 0 {
			return "Changed " + strings.Join(parts, ", ")
		}
	}
	if ev.Outcome == store.OutcomeSuccess {
		return what
	}
	return fmt.Sprintf("%s %s (HTTP %d)", what, ev.Outcome, ev.Status)
}

// listIncidentExecutions answers the playbook runs on an incident,
// newest first.
func (s *server) listIncidentExecutions(c *gin.Context) (reply, error) {
	inc, err := s.store.GetIncident(c, c.Param("id"))
	if err != nil {
		return reply{}, orNotFound(err, incidentNotFound)
	}
	rows, err := s.store.ListIncidentExecutions(c, inc.ID, timelineMaxRuns)
	if err != nil {
		return reply{}, err
	}
	out := make([]executionView, 0, len(rows))
	for i := range rows {
		out = append(out, executionViewOf(&rows[i], false))
	}
	return ok(out), nil
}
