package api

import (
	"context"
	"net/http"

	"github.com/gin-gonic/gin"

	"github.com/vigil-soc/vigil/store"
	"github.com/vigil-soc/vigil/workflows"
)

type approveRequest struct {
	Comment string `json:"comment"`
}

type rejectRequest struct {
	Reason *string `json:"reason"`
}

// pendingForApprover loads an action the caller may decide: pending
// approval, at or below the caller's level, and (unless the general
// setting allows it) not requested by the caller.
func (s *server) pendingForApprover(c *gin.Context) (*store.Action, error) {
	a, err := s.store.GetAction(c, c.Param("id"))
	if err != nil {
		return nil, orNotFound(err, "action")
	}
	me := principal(c).User
	// A viewer approves nothing, whatever state the action is in.
	if store.RoleRank(me.Role) < store.RoleRank(store.RoleAnalyst) {
		level := a.ApprovalLevel
		if level == "" {
			level = store.RoleAnalyst
		}
		return nil, errInsufficientLevel(level, me.Role)
	}
	if a.Status != store.ActionPendingApproval || a.ApprovedBy != "" {
		return nil, errNotPending(a)
	}
	if store.RoleRank(me.Role) < store.RoleRank(a.ApprovalLevel) {
		return nil, errInsufficientLevel(a.ApprovalLevel, me.Role)
	}
	if a.RequestedByID == me.ID && !s.selfApprovalAllowed(c) {
		return nil, newError(http.StatusForbidden, CodeSelfApproval,
			"you requested this action; another approver must decide it (setting general.allow_self_approval)")
	}
	return a, nil
}

func (s *server) selfApprovalAllowed(ctx context.Context) bool {
	if s.settings == nil {
		return false
	}
	g, err := s.settings.General(ctx)
	return err == nil && g.AllowSelfApproval
}

// approveAction claims the approval in the store (exactly one racing
// approver wins), then wakes the waiting workflow and answers from what it
// did within a bounded time (see wakeForDecision).
func (s *server) approveAction(c *gin.Context) (reply, error) {
	var req approveRequest
	if err := decodeJSON(c, &req, true); err != nil {
		return reply{}, err
	}
	a, err := s.pendingForApprover(c)
	if err != nil {
		return reply{}, err
	}
	approver := principal(c).User
	me := approver.Username
	won, err := s.store.ClaimApproval(c, a.ID, &approver, req.Comment)
	if err != nil {
		return reply{}, err
	}
	if !won {
		latest, _ := s.store.GetAction(c, a.ID)
		return reply{}, errNotPending(latest)
	}
	setAuditDetails(c, map[string]any{"action_type": a.ActionType, "approval_level": a.ApprovalLevel})
	wake := decisionWake{workflows.SignalApprove, workflows.ApproveSignal{By: me, Comment: req.Comment}}
	done, err := s.wakeForDecision(c, a, wake, func(ctx context.Context) error {
		err := s.temporal.SignalWorkflow(ctx, a.WorkflowID, "", wake.Name, wake.Arg)
		if err != nil {
			_ = s.store.ReleaseApproval(context.WithoutCancel(ctx), a.ID, me)
			return newError(http.StatusServiceUnavailable, CodeUnavailable, "the workflow engine is unreachable; the approval was not recorded")
		}
		return nil
	})
	if err != nil {
		return reply{}, err
	}
	body := gin.H{"id": done.ID, "status": done.Status, "approved_by": done.ApprovedBy,
		"approved_at": utcPtr(done.ApprovedAt), "result": resultView(done.Result.V)}
	if done.Error != "" {
		body["error"] = done.Error
	}
	if done.Status == store.ActionPendingApproval {
		body["message"] = s.pendingMessage(c)
		return accepted(body), nil
	}
	return ok(body), nil
}

// rejectAction records the rejection (exactly one racing decider wins)
// and wakes the workflow so it ends.
func (s *server) rejectAction(c *gin.Context) (reply, error) {
	var req rejectRequest
	if err := decodeJSON(c, &req, false); err != nil {
		return reply{}, err
	}
	bad := map[string]string{}
	reason := requiredText(bad, "reason", req.Reason, maxTextLen)
	if len(bad) > 0 {
		return reply{}, validationError(bad)
	}
	a, err := s.pendingForApprover(c)
	if err != nil {
		return reply{}, err
	}
	me := principal(c).User.Username
	won, err := s.store.Reject(c, a.ID, me, reason)
	if err != nil {
		return reply{}, err
	}
	if !won {
		latest, _ := s.store.GetAction(c, a.ID)
		return reply{}, errNotPending(latest)
	}
	setAuditDetails(c, map[string]any{"action_type": a.ActionType, "reason_length": len(reason)})
	wake := decisionWake{workflows.SignalReject, workflows.RejectSignal{By: me, Reason: reason}}
	done, err := s.wakeForDecision(c, a, wake, func(ctx context.Context) error {
		if err := s.temporal.SignalWorkflow(ctx, a.WorkflowID, "", wake.Name, wake.Arg); err != nil {
			// The rejection stands in the store; the run ends at expiry
			// or on its next wake without executing, because executing
			// needs the store's approval.
			s.log.Warn("reject signal not delivered", "action_id", a.ID, "err", err)
		}
		return nil
	})
	if err != nil {
		return reply{}, err
	}
	return ok(gin.H{"id": done.ID, "status": done.Status, "rejected_by": done.RejectedBy,
		"rejected_at": utcPtr(done.RejectedAt), "rejection_reason": done.RejectionReason}), nil
}

// errInsufficientLevel is the SPEC's refusal of an approver below the
// action's required level.
func errInsufficientLevel(required, yours string) error {
	return &Error{Status: http.StatusForbidden, Code: CodeInsufficientLevel,
		Message: "your role cannot decide an action that needs " + required + " approval",
		Details: map[string]any{"required_level": required, "your_level": yours}}
}
