package api

import (
	"time"

	"github.com/vigil-soc/vigil/store"
)

// actionView is an action as the API shows it.
type actionView struct {
	ID              string          `json:"id"`
	IncidentID      *string         `json:"incident_id,omitempty"`
	ActionType      string          `json:"action_type"`
	Status          string          `json:"status"`
	ApprovalLevel   string          `json:"approval_level,omitempty"`
	Parameters      map[string]any  `json:"parameters"`
	RequestedBy     string          `json:"requested_by"`
	RequestedAt     time.Time       `json:"requested_at"`
	ExecutedAt      *time.Time      `json:"executed_at,omitempty"`
	ExecutedBy      string          `json:"executed_by,omitempty"`
	ApprovedBy      string          `json:"approved_by,omitempty"`
	ApprovedAt      *time.Time      `json:"approved_at,omitempty"`
	ApprovalComment string          `json:"approval_comment,omitempty"`
	RejectedBy      string          `json:"rejected_by,omitempty"`
	RejectedAt      *time.Time      `json:"rejected_at,omitempty"`
	RejectionReason string          `json:"rejection_reason,omitempty"`
	Result          map[string]any  `json:"result,omitempty"`
	Error           string          `json:"error,omitempty"`
	PolicyRule      string          `json:"policy_rule,omitempty"`
	DecisionReason  string          `json:"decision_reason,omitempty"`
	ExpiresAt       *time.Time      `json:"expires_at,omitempty"`
	RollbackOf      string          `json:"rollback_of,omitempty"`
	RolledBackBy    string          `json:"rolled_back_by,omitempty"`
	WorkflowID      string          `json:"workflow_id"`
	Incident        *actionIncident `json:"incident,omitempty"`
}

// actionIncident is the incident nested in a single-action read.
type actionIncident struct {
	IncidentNumber string `json:"incident_number"`
	IncidentType   string `json:"incident_type"`
	Severity       string `json:"severity"`
}

// resultView flattens a result: success and message, then the connector's
// output fields (isolation_id, host_id, ...) beside them.
func resultView(r *store.ActionResult) map[string]any {
	if r == nil {
		return nil
	}
	out := map[string]any{}
	for k, v := range r.Output {
		out[k] = v
	}
	out["success"], out["message"] = r.Success, r.Message
	return out
}

func actionViewOf(a *store.Action) actionView {
	params := a.Parameters.V
	if params == nil {
		params = map[string]any{}
	}
	return actionView{
		ID: a.ID, IncidentID: a.IncidentID, ActionType: a.ActionType, Status: a.Status,
		ApprovalLevel: a.ApprovalLevel, Parameters: params, RequestedBy: a.RequestedBy,
		RequestedAt: a.RequestedAt.UTC(), ExecutedAt: utcPtr(a.ExecutedAt), ExecutedBy: a.ExecutedBy,
		ApprovedBy: a.ApprovedBy, ApprovedAt: utcPtr(a.ApprovedAt), ApprovalComment: a.ApprovalComment,
		RejectedBy: a.RejectedBy, RejectedAt: utcPtr(a.RejectedAt), RejectionReason: a.RejectionReason,
		Result: resultView(a.Result.V), Error: a.Error, PolicyRule: a.PolicyRuleName,
		DecisionReason: a.DecisionReason, ExpiresAt: utcPtr(a.ExpiresAt), RollbackOf: a.RollbackOf,
		RolledBackBy: a.RolledBackBy, WorkflowID: a.WorkflowID,
	}
}
