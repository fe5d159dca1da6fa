package web

import (
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/gin-gonic/gin"
)

// action is an action as the API shows it.
type action struct {
	ID              string         `json:"id"`
	IncidentID      *string        `json:"incident_id"`
	ActionType      string         `json:"action_type"`
	Status          string         `json:"status"`
	ApprovalLevel   string         `json:"approval_level"`
	Parameters      map[string]any `json:"parameters"`
	RequestedBy     string         `json:"requested_by"`
	RequestedAt     time.Time      `json:"requested_at"`
	ExecutedAt      *time.Time     `json:"executed_at"`
	ExecutedBy      string         `json:"executed_by"`
	ApprovedBy      string         `json:"approved_by"`
	ApprovedAt      *time.Time     `json:"approved_at"`
	ApprovalComment string         `json:"approval_comment"`
	RejectedBy      string         `json:"rejected_by"`
	RejectedAt      *time.Time     `json:"rejected_at"`
	RejectionReason string         `json:"rejection_reason"`
	Result          map[string]any `json:"result"`
	Error           string         `json:"error"`
	DecisionReason  string         `json:"decision_reason"`
	PolicyRule      string         `json:"policy_rule"`
	RollbackOf      string         `json:"rollback_of"`
	RolledBackBy    string         `json:"rolled_back_by"`
	ExpiresAt       *time.Time     `json:"expires_at"`
	WorkflowID      string         `json:"workflow_id"`
	Incident        *struct {
		IncidentNumber string `json:"incident_number"`
		IncidentType   string `json:"incident_type"`
		Severity       string `json:"severity"`
	} `json:"incident"`
}

// Decider names who decided the action, or "".
func (a action) Decider() string {
	if a.ApprovedBy != "" {
		return a.ApprovedBy
	}
	return a.RejectedBy
}

type approvalsData struct {
	Queue []action
	// Late is a refusal for an action no longer in the queue, such as
	// one another approver decided first.
	Late *APIError
}

func (d *Dashboard) approvals(c *gin.Context, v *view) (string, error) {
	v.Title, v.Nav = "Approvals", "approvals"
	return "approvals", d.loadQueue(c, v)
}

func (d *Dashboard) approvalQueue(c *gin.Context, v *view) (string, error) {
	return "approvals#queue", d.loadQueue(c, v)
}

// loadQueue lists the actions the user may decide: pending, at or below
// their level, not their own, oldest first. The filter only tidies the
// page; the API refuses any decision the user may not make.
func (d *Dashboard) loadQueue(c *gin.Context, v *view) error {
	var all []action
	if err := d.api.call(c.Request, http.MethodGet, "/api/actions?status=pending_approval&limit=500", nil, &all); err != nil {
		return err
	}
	data := &approvalsData{}
	for _, a := range all {
		if v.User.AtLeast(a.ApprovalLevel) && a.RequestedBy != v.User.Username {
			data.Queue = append(data.Queue, a)
		}
	}
	slices.SortFunc(data.Queue, func(a, b action) int { return a.RequestedAt.Compare(b.RequestedAt) })
	if v.FormErr != nil && !slices.ContainsFunc(data.Queue, func(a action) bool { return v.FormKey == "decide-"+a.ID }) {
		data.Late = v.FormErr
	}
	v.Data = data
	return nil
}

func (d *Dashboard) approve(c *gin.Context, _ *view) (string, error) {
	body := map[string]string{"comment": strings.TrimSpace(c.PostForm("comment"))}
	err := d.api.call(c.Request, http.MethodPost, "/api/actions/"+url.PathEscape(c.Param("id"))+"/approve", body, nil)
	return "/approvals?done=approved", decisionError(err)
}

func (d *Dashboard) reject(c *gin.Context, _ *view) (string, error) {
	body := map[string]string{"reason": strings.TrimSpace(c.PostForm("reason"))}
	err := d.api.call(c.Request, http.MethodPost, "/api/actions/"+url.PathEscape(c.Param("id"))+"/reject", body, nil)
	return "/approvals?done=rejected", decisionError(err)
}

// decisionError rewrites the API's 409 for an action decided meanwhile
// into the words an approver needs: who decided it.
func decisionError(err error) error {
	apiErr, ok := err.(*APIError)
	if !ok || apiErr.Status != http.StatusConflict {
		return err
	}
	out := *apiErr
	switch by, rej := apiErr.DetailString("approved_by"), apiErr.DetailString("rejected_by"); {
	case by != "":
		out.Message = "Already decided by " + by + " (approved)."
	case rej != "":
		out.Message = "Already decided by " + rej + " (rejected)."
	default:
		out.Message = "Already decided: the action is " + apiErr.DetailString("status") + "."
	}
	return &out
}
