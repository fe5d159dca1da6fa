package api

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/gin-gonic/gin"
	"github.com/google/uuid"
	"go.temporal.io/sdk/temporal"

	"github.com/vigil-soc/vigil/actions"
	"github.com/vigil-soc/vigil/runview"
	"github.com/vigil-soc/vigil/store"
	"github.com/vigil-soc/vigil/workflows"
)

// Action error codes.
const (
	CodePolicyDenied      = "policy_denied"
	CodeInsufficientLevel = "insufficient_approval_level"
	CodeNotPending        = "action_not_pending"
	CodeSelfApproval      = "self_approval_forbidden"
	CodeRollbackNotSupp   = "rollback_not_supported"
	CodeNotCompleted      = "action_not_completed"
	CodeAlreadyRolledBack = "already_rolled_back"
)

// actionPollInterval is how often a request waiting on an action re-reads it.
const actionPollInterval = 20 * time.Millisecond

type actionRequest struct {
	Action     *string        `json:"action"`
	Parameters map[string]any `json:"parameters"`
}

func (s *server) listActionTypes(*gin.Context) (reply, error) {
	return ok(actions.Types()), nil
}

func (s *server) requestIncidentAction(c *gin.Context) (reply, error) {
	inc, err := s.store.GetIncident(c, c.Param("id"))
	if err != nil {
		return reply{}, orNotFound(err, incidentNotFound)
	}
	return s.requestAction(c, inc)
}

func (s *server) executeAction(c *gin.Context) (reply, error) {
	return s.requestAction(c, nil)
}

// requestAction validates the request against its type, records the
// action, starts its workflow and waits a bounded time for the policy
// outcome: completed with result, pending_approval, or 403 when denied.
func (s *server) requestAction(c *gin.Context, inc *store.Incident) (reply, error) {
	var req actionRequest
	if err := decodeJSON(c, &req, false); err != nil {
		return reply{}, err
	}
	name := requiredText(map[string]string{}, "action", req.Action, 0)
	typ, known := actions.Lookup(name)
	if !known {
		return reply{}, validationError(map[string]string{"action": fmt.Sprintf("unknown action type %q; see GET /api/actions/types", name)})
	}
	params, bad := typ.Validate(req.Parameters)
	if len(bad) > 0 {
		return reply{}, validationError(bad)
	}
	p := principal(c)
	act := &store.Action{ID: uuid.NewString(), ActionType: typ.Name, Parameters: store.NewJSON(params),
		RequestedBy: p.User.Username, RequestedByID: p.User.ID}
	if inc != nil {
		act.IncidentID = &inc.ID
	}
	if err := s.startAction(c, act, inc); err != nil {
		return reply{}, err
	}
	setAuditTarget(c, act.ID)
	setAuditDetails(c, map[string]any{"action_type": act.ActionType, "incident_id": act.IncidentID})
	return s.answerNewAction(c, act.ID)
}

// startAction records the action and starts its workflow; a workflow that
// cannot start fails the action rather than leaving it pending forever.
func (s *server) startAction(ctx context.Context, act *store.Action, inc *store.Incident) error {
	act.WorkflowID = workflows.ActionWorkflowID(act.ID)
	if err := s.store.CreateAction(ctx, act); err != nil {
		return err
	}
	attrs := []temporal.SearchAttributeUpdate{workflows.SearchActionType.ValueSet(act.ActionType)}
	if inc != nil {
		attrs = append(attrs, workflows.IncidentAttrs(inc.IncidentNumber, inc.Severity, inc.IncidentType)...)
	}
	meta := runview.Action(s.launcher.Links, act, inc, "")
	err := workflows.Start{ID: act.WorkflowID, Summary: meta.Summary, Details: meta.Details, Attrs: attrs}.
		Run(ctx, s.temporal, workflows.Action, workflows.ActionInput{ActionID: act.ID})
	if err != nil {
		_ = s.store.FailAction(context.WithoutCancel(ctx), act.ID, "could not start workflow: "+err.Error())
		return newError(http.StatusServiceUnavailable, CodeUnavailable, "the workflow engine is unreachable; try again shortly")
	}
	return nil
}

// waitFor re-reads a row until done says it has moved on, the wait bound
// passes or the caller goes away, and returns the latest read. Reads use a
// context that survives the caller, so an answer is never cut in half.
func waitFor[T any](c *gin.Context, bound time.Duration, read func(context.Context) (T, error), done func(T) bool) (T, error) {
	deadline := time.Now().Add(bound)
	for {
		v, err := read(context.WithoutCancel(c))
		if err != nil || done(v) || time.Now().After(deadline) {
			return v, err
		}
		select {
		case <-c.Request.Context().Done():
			return v, nil
		case <-time.After(actionPollInterval):
		}
	}
}

// waitAction waits for an action to move on, up to ActionWait.
func (s *server) waitAction(c *gin.Context, id string, done func(*store.Action) bool) (*store.Action, error) {
	return waitFor(c, s.opts.ActionWait, func(ctx context.Context) (*store.Action, error) { return s.store.GetAction(ctx, id) }, done)
}

func (s *server) answerNewAction(c *gin.Context, id string) (reply, error) {
	a, err := s.waitAction(c, id, func(a *store.Action) bool { return a.Status != store.ActionPending })
	if err != nil {
		return reply{}, err
	}
	body := gin.H{"action_id": a.ID, "status": a.Status, "action": actionViewOf(a)}
	switch a.Status {
	case store.ActionRejected:
		return reply{}, &Error{Status: http.StatusForbidden, Code: CodePolicyDenied,
			Message: fmt.Sprintf("policy rule %q denies this action", a.PolicyRuleName),
			Details: map[string]any{"rule": a.PolicyRuleName, "reason": a.DecisionReason, "action_id": a.ID}}
	case store.ActionPendingApproval:
		body["approval_level"] = a.ApprovalLevel
		body["message"] = fmt.Sprintf("action requires %s approval", a.ApprovalLevel)
		return created(body), nil
	case store.ActionPending:
		body["message"] = s.pendingMessage(c)
		return accepted(body), nil
	}
	body["result"] = resultView(a.Result.V)
	if a.Error != "" {
		body["error"] = a.Error
	}
	return created(body), nil
}

// pendingMessage explains why an action has not finished yet.
func (s *server) pendingMessage(ctx context.Context) string {
	if ks, err := s.store.KillSwitch(ctx); err == nil && ks.Active {
		return "the kill switch is active; the action runs when automation resumes"
	}
	return "the action is still being processed"
}

func (s *server) getAction(c *gin.Context) (reply, error) {
	a, err := s.store.GetAction(c, c.Param("id"))
	if err != nil {
		return reply{}, orNotFound(err, "action")
	}
	v := actionViewOf(a)
	if a.IncidentID != nil {
		if inc, err := s.store.GetIncident(c, *a.IncidentID); err == nil {
			v.Incident = &actionIncident{IncidentNumber: inc.IncidentNumber, IncidentType: inc.IncidentType, Severity: inc.Severity}
		}
	}
	return ok(v), nil
}

func (s *server) listActions(c *gin.Context) (reply, error) {
	bad := map[string]string{}
	f := store.ActionFilter{ActionType: c.Query("action_type"), Limit: parseIntParam(c, bad, "limit", 100, 1, 500)}
	if v, ok := c.GetQuery("status"); ok {
		if !slices.Contains(store.ActionStatuses, v) {
			bad["status"] = "must be one of " + strings.Join(store.ActionStatuses, ", ")
		}
		f.Status = v
	}
	if v, ok := c.GetQuery("incident_id"); ok {
		if _, err := uuid.Parse(v); err != nil {
			bad["incident_id"] = "must be a UUID"
		}
		f.IncidentID = v
	}
	if v, ok := c.GetQuery("approval_level"); ok {
		if !slices.Contains(approvalLevels, v) {
			bad["approval_level"] = "must be one of " + strings.Join(approvalLevels, ", ")
		}
		f.ApprovalLevel = v
	}
	if v := f.ActionType; v != "" {
		if _, known := actions.Lookup(v); !known {
			bad["action_type"] = "unknown action type"
		}
	}
	if len(bad) > 0 {
		return reply{}, validationError(bad)
	}
	return s.actionList(c, f)
}

var approvalLevels = []string{store.RoleAnalyst, store.RoleSenior, store.RoleManager}

func (s *server) listIncidentActions(c *gin.Context) (reply, error) {
	inc, err := s.store.GetIncident(c, c.Param("id"))
	if err != nil {
		return reply{}, orNotFound(err, incidentNotFound)
	}
	return s.actionList(c, store.ActionFilter{IncidentID: inc.ID, Limit: 500})
}

func (s *server) actionList(c *gin.Context, f store.ActionFilter) (reply, error) {
	rows, err := s.store.ListActions(c, f)
	if err != nil {
		return reply{}, err
	}
	// Each row names its incident, read in one query for the page.
	var ids []string
	for i := range rows {
		if id := rows[i].IncidentID; id != nil && !slices.Contains(ids, *id) {
			ids = append(ids, *id)
		}
	}
	incs, err := s.store.IncidentsByID(c, ids)
	if err != nil {
		return reply{}, err
	}
	out := make([]actionView, 0, len(rows))
	for i := range rows {
		v := actionViewOf(&rows[i])
		if id := rows[i].IncidentID; id != nil {
			if inc, found := incs[*id]; found {
				v.Incident = &actionIncident{IncidentNumber: inc.IncidentNumber, IncidentType: inc.IncidentType, Severity: inc.Severity}
			}
		}
		out = append(out, v)
	}
	return ok(out), nil
}

// actionRollback is what a rollback answers.
type actionRollback struct {
	RollbackActionID string         `json:"rollback_action_id"`
	OriginalActionID string         `json:"original_action_id"`
	Status           string         `json:"status"`
	ApprovalLevel    string         `json:"approval_level,omitempty"`
	Result           map[string]any `json:"result,omitempty"`
	Error            string         `json:"error,omitempty"`
}

type rollbackRequest struct {
	Reason string `json:"reason"`
}

// rollbackAction starts an Action workflow of the reverse type, linked to
// the original; only the first rollback of an action is accepted. The
// rollback needs the approval level the original needed: a requester whose
// role meets it runs it at once, anyone else gets it pending_approval.
func (s *server) rollbackAction(c *gin.Context) (reply, error) {
	var req rollbackRequest
	if err := decodeJSON(c, &req, true); err != nil {
		return reply{}, err
	}
	orig, err := s.store.GetAction(c, c.Param("id"))
	if err != nil {
		return reply{}, orNotFound(err, "action")
	}
	typ, _ := actions.Lookup(orig.ActionType)
	if !typ.SupportsRollback {
		return reply{}, newError(http.StatusBadRequest, CodeRollbackNotSupp, "action type "+orig.ActionType+" cannot be rolled back")
	}
	if orig.Status != store.ActionCompleted {
		return reply{}, newError(http.StatusConflict, CodeNotCompleted, "only a completed action can be rolled back; this one is "+orig.Status)
	}
	rb := &store.Action{ID: uuid.NewString(), IncidentID: orig.IncidentID, ActionType: typ.RollbackAction,
		Parameters: store.NewJSON(typ.RollbackParameters(orig.Parameters.V)), RollbackOf: orig.ID,
		RequestedBy: principal(c).User.Username, RequestedByID: principal(c).User.ID}
	if req.Reason != "" {
		rb.Parameters.V["reason"] = req.Reason
	}
	won, err := s.store.ClaimRollback(c, orig.ID, rb.ID)
	if err != nil {
		return reply{}, err
	}
	if !won {
		return reply{}, newError(http.StatusConflict, CodeAlreadyRolledBack, "this action has already been rolled back")
	}
	var inc *store.Incident
	if orig.IncidentID != nil {
		inc, _ = s.store.GetIncident(c, *orig.IncidentID)
	}
	if err := s.startAction(c, rb, inc); err != nil {
		_ = s.store.ReleaseRollback(context.WithoutCancel(c), orig.ID, rb.ID)
		return reply{}, err
	}
	setAuditTarget(c, orig.ID)
	setAuditDetails(c, map[string]any{"rollback_action_id": rb.ID, "action_type": rb.ActionType})
	a, err := s.waitAction(c, rb.ID, func(a *store.Action) bool { return a.Status != store.ActionPending })
	if err != nil {
		return reply{}, err
	}
	out := actionRollback{RollbackActionID: rb.ID, OriginalActionID: orig.ID, Status: a.Status,
		Result: resultView(a.Result.V), Error: a.Error}
	if a.Status == store.ActionPendingApproval {
		out.ApprovalLevel = a.ApprovalLevel
	}
	if a.Status == store.ActionPending {
		return accepted(out), nil
	}
	return created(out), nil
}

// scanResults reads the findings of a scan_host action's scan.
func (s *server) scanResults(c *gin.Context) (reply, error) {
	a, err := s.store.GetAction(c, c.Param("id"))
	if err != nil {
		return reply{}, orNotFound(err, "action")
	}
	scanID, _ := resultOutput(a, "scan_id").(string)
	if a.ActionType != "scan_host" || scanID == "" {
		return reply{}, newError(http.StatusConflict, CodeNotCompleted, "this action is not a completed host scan")
	}
	set, err := s.currentConnectors(c)
	if err != nil {
		return reply{}, err
	}
	// A scan started by the simulated EDR is read there even when a vendor
	// EDR has been configured since.
	edr := set.EDR
	if simulated, _ := resultOutput(a, "simulated").(bool); simulated {
		edr = s.connectors.EDR
	}
	report, err := edr.Scan(c, scanID)
	if err != nil {
		return reply{}, err
	}
	return ok(report), nil
}

func resultOutput(a *store.Action, key string) any {
	if a.Result.V == nil {
		return nil
	}
	return a.Result.V.Output[key]
}

// errNotPending is the 409 for approving or rejecting a decided action.
func errNotPending(a *store.Action) error {
	return &Error{Status: http.StatusConflict, Code: CodeNotPending,
		Message: "action is not pending approval; it is " + a.Status,
		Details: map[string]any{"status": a.Status, "approved_by": a.ApprovedBy, "rejected_by": a.RejectedBy}}
}
