package activities

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"go.temporal.io/sdk/temporal"

	"github.com/vigil-soc/vigil/actions"
	"github.com/vigil-soc/vigil/connectors"
	"github.com/vigil-soc/vigil/policy"
	"github.com/vigil-soc/vigil/runview"
	"github.com/vigil-soc/vigil/store"
)

// More non-retryable application error types.
const (
	// ErrTypeKillSwitch means the kill switch holds all connector calls;
	// the workflow parks until it is lifted.
	ErrTypeKillSwitch = "KillSwitchActive"
	// ErrTypePermanent means the connector refused the call for a reason
	// a retry cannot fix.
	ErrTypePermanent = "PermanentConnectorError"
)

// Policy outcomes as the Action workflow sees them.
const (
	OutcomeAutoApprove     = policy.OutcomeAutoApprove
	OutcomeRequireApproval = policy.OutcomeRequireApproval
	OutcomeDeny            = policy.OutcomeDeny
)

// defaultApprovalExpiry applies when the general setting cannot be read.
const defaultApprovalExpiry = 72 * time.Hour

// ActionPlan is the policy decision an Action workflow acts on.
type ActionPlan struct {
	Outcome        string
	ApprovalLevel  string
	ApprovalExpiry time.Duration
	RuleName       string
	Reason         string
	// ConnectorCall summarises the connector call for the UI.
	ConnectorCall string
}

// ExecutionResult is what a connector call produced.
type ExecutionResult struct {
	Success bool
	Message string
	Output  map[string]any
}

// ApproverNotifier tells approvers an action waits for them. The default
// logs; the notification channels plug in here.
type ApproverNotifier interface {
	NotifyApprovers(ctx context.Context, a *store.Action) error
}

// LogNotifier is the ApproverNotifier used until channels are configured.
type LogNotifier struct{ Log *slog.Logger }

// NotifyApprovers logs the request for approval.
func (n LogNotifier) NotifyApprovers(ctx context.Context, a *store.Action) error {
	n.Log.InfoContext(ctx, "action awaits approval", "action_id", a.ID, "action_type", a.ActionType,
		"approval_level", a.ApprovalLevel, "requested_by", a.RequestedBy)
	return nil
}

// DecideAction evaluates policy for a pending action and records the
// outcome. Run again on a decided action, it returns the stored decision.
func (a *Activities) DecideAction(ctx context.Context, actionID string) (ActionPlan, error) {
	act, inc, err := a.Store.GetActionForDecision(ctx, actionID)
	if err != nil {
		return ActionPlan{}, permanentIfNotFound(err)
	}
	if err := ownedBy(ctx, "action", act.ID, act.WorkflowID); err != nil {
		return ActionPlan{}, err
	}
	expiry := a.approvalExpiry(ctx)
	switch act.Status {
	case store.ActionPendingApproval:
		return ActionPlan{Outcome: OutcomeRequireApproval, ApprovalLevel: act.ApprovalLevel,
			ApprovalExpiry: time.Until(*act.ExpiresAt), RuleName: act.PolicyRuleName, Reason: act.DecisionReason,
			ConnectorCall: runview.ConnectorCall(act.ActionType, act.Parameters.V)}, nil
	case store.ActionRejected:
		return ActionPlan{Outcome: OutcomeDeny, RuleName: act.PolicyRuleName, Reason: act.DecisionReason}, nil
	}
	typ, ok := actions.Lookup(act.ActionType)
	if !ok {
		return ActionPlan{}, temporal.NewNonRetryableApplicationError("unknown action type "+act.ActionType, ErrTypePermanent, nil)
	}
	env := a.policyEnv(ctx, act, inc)
	defaultLevel := typ.DefaultApprovalLevel
	if act.RollbackOf != "" {
		if defaultLevel, err = a.inheritedLevel(ctx, act, defaultLevel); err != nil {
			return ActionPlan{}, err
		}
	}
	d, err := a.Policy.Decide(ctx, env, defaultLevel)
	if err != nil {
		return ActionPlan{}, fmt.Errorf("evaluate policy: %w", err)
	}
	if act.RollbackOf != "" {
		d = rollbackDecision(d, defaultLevel, env.Requester)
	}
	plan := ActionPlan{Outcome: d.Outcome, ApprovalLevel: d.ApprovalLevel, ApprovalExpiry: expiry,
		RuleName: d.RuleName, Reason: d.Reason, ConnectorCall: runview.ConnectorCall(act.ActionType, act.Parameters.V)}
	rec := store.ActionDecision{Outcome: d.Outcome, ApprovalLevel: d.ApprovalLevel,
		RuleID: d.RuleID, RuleName: d.RuleName, Reason: d.Reason}
	if d.Outcome == OutcomeRequireApproval {
		exp := store.Now().Add(expiry)
		rec.ExpiresAt = &exp
	}
	if err := a.Store.RecordDecision(ctx, actionID, rec); err != nil {
		return ActionPlan{}, err
	}
	return plan, nil
}

func (a *Activities) approvalExpiry(ctx context.Context) time.Duration {
	if a.Settings == nil {
		return defaultApprovalExpiry
	}
	// Read once per action: the cached setting (a second old at most) will do.
	g, err := a.Settings.CachedGeneral(ctx)
	if err != nil {
		return defaultApprovalExpiry
	}
	return time.Duration(g.ApprovalExpiryHours) * time.Hour
}

// policyEnv gathers what rules may look at: the action, its incident (nil
// when it has none) and the requester.
func (a *Activities) policyEnv(ctx context.Context, act *store.Action, inc *store.Incident) policy.Env {
	env := policy.Env{
		Action: policy.ActionEnv{Type: act.ActionType, Parameters: act.Parameters.V},
	}
	if u, err := a.Store.GetUser(ctx, act.RequestedByID); err == nil {
		env.Requester = policy.RequesterEnv{Username: u.Username, Role: u.Role, RoleRank: store.RoleRank(u.Role)}
	} else {
		env.Requester = policy.RequesterEnv{Username: act.RequestedBy, Role: AutomationRole, RoleRank: -1}
	}
	if inc != nil {
		env.Incident = policy.IncidentEnv{Present: true, ID: inc.ID, Number: inc.IncidentNumber,
			Severity: inc.Severity, SeverityRank: store.SeverityRank(inc.Severity),
			Type: inc.IncidentType, Source: inc.Source}
		if v := inc.Verdict.V; v != nil {
			env.Incident.Verdict = policy.VerdictEnv{Classification: v.Classification, Confidence: v.Confidence, Category: v.Category}
		}
	}
	return env
}

// NotifyApprovers tells approvers an action awaits them.
func (a *Activities) NotifyApprovers(ctx context.Context, actionID string) error {
	act, err := a.ownedAction(ctx, actionID)
	if err != nil {
		return err
	}
	if a.Notifier == nil {
		return nil
	}
	return a.Notifier.NotifyApprovers(ctx, act)
}

// ExecuteAction performs the action through its connector, after claiming
// it in the store: the claim holds only when the store records an approval
// (or policy's auto-approval), no rejection, no earlier end, no other
// workflow's claim and the kill switch off, all in one conditional update
// (see store.ClaimAction), which also answers the action it claimed.
// The action id is the idempotency key, so a retry or a worker crash never
// performs it twice.
func (a *Activities) ExecuteAction(ctx context.Context, actionID string) (ExecutionResult, error) {
	act, done, err := a.claimOwnAction(ctx, actionID)
	if err != nil {
		return ExecutionResult{}, err
	}
	if done != nil {
		return *done, nil
	}
	set := a.Connectors
	if a.ConnectorSet != nil {
		if set, err = a.ConnectorSet(ctx); err != nil {
			return ExecutionResult{}, fmt.Errorf("load connector configuration: %w", err)
		}
	}
	res, err := set.Execute(ctx, act.ActionType, act.ID, act.Parameters.V)
	if errors.Is(err, connectors.ErrPermanent) {
		return ExecutionResult{}, temporal.NewNonRetryableApplicationError(err.Error(), ErrTypePermanent, err)
	}
	if err != nil {
		return ExecutionResult{}, fmt.Errorf("%s via connector: %w", act.ActionType, err)
	}
	return ExecutionResult{Success: res.Success, Message: res.Message, Output: res.Output}, nil
}

// claimOwnAction claims the action for the calling workflow and answers
// it. When the claim does not hold, the action is read: a completed one
// answers its stored result as done (a repeat after a crash), and
// otherwise the refusal says why, naming a caller that is not the
// action's workflow as such.
func (a *Activities) claimOwnAction(ctx context.Context, actionID string) (act *store.Action, done *ExecutionResult, err error) {
	if caller := callerWorkflow(ctx); caller != "" {
		if act, err = a.Store.ClaimAction(ctx, actionID, caller); err != nil || act != nil {
			return act, nil, err
		}
	}
	if act, err = a.ownedAction(ctx, actionID); err != nil {
		return nil, nil, err
	}
	if act.Status == store.ActionCompleted && act.Result.V != nil {
		r := act.Result.V
		return nil, &ExecutionResult{Success: r.Success, Message: r.Message, Output: r.Output}, nil
	}
	return nil, nil, a.refusal(ctx, act)
}

// RecordActionResult stores a finished execution. The write itself
// requires the caller to be the action's workflow; only when it changes
// nothing (a repeat, or someone else's workflow) is the action read, to
// tell the two apart.
func (a *Activities) RecordActionResult(ctx context.Context, actionID string, r ExecutionResult) error {
	return a.endOwnAction(ctx, actionID, func(workflowID string) (bool, error) {
		return a.Store.CompleteOwnAction(ctx, actionID, workflowID, "system",
			store.ActionResult{Success: r.Success, Message: r.Message, Output: r.Output})
	})
}

// FailAction records why an action ended without running, as
// RecordActionResult records a result.
func (a *Activities) FailAction(ctx context.Context, actionID, reason string) error {
	return a.endOwnAction(ctx, actionID, func(workflowID string) (bool, error) {
		return a.Store.FailOwnAction(ctx, actionID, workflowID, reason)
	})
}

// endOwnAction runs end, a write guarded by the calling workflow's id, and
// checks ownership by reading the action only when end changed nothing.
func (a *Activities) endOwnAction(ctx context.Context, actionID string, end func(workflowID string) (bool, error)) error {
	if caller := callerWorkflow(ctx); caller != "" {
		done, err := end(caller)
		if err != nil || done {
			return err
		}
	}
	_, err := a.ownedAction(ctx, actionID)
	return err
}
