package activities

import (
	"context"
	"fmt"
	"time"

	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/temporal"

	"github.com/vigil-soc/vigil/store"
)

// Refusals of the execution claim. Anyone who can reach the Temporal
// frontend can start workflows and send signals, so activities act only on
// what the store records.
const (
	// ErrTypeNotOwner means the calling workflow is not the one the store
	// records for the action or playbook run; it may change nothing.
	ErrTypeNotOwner = "NotTheRecordedWorkflow"
	// ErrTypeNotApproved means the store records no approval (or
	// auto-approval) for the action; the workflow may wait for one.
	ErrTypeNotApproved = "ApprovalNotRecorded"
	// ErrTypeRefused means the store records a decision that forbids the
	// execution for good: rejected, already ended, or an approver whose
	// role does not meet the level.
	ErrTypeRefused = "ExecutionRefused"
)

// Stored decision states ReadActionDecision reports.
const (
	DecisionApproved  = "approved"
	DecisionRejected  = "rejected"
	DecisionUndecided = "undecided"
	DecisionEnded     = "ended"
)

// StoredDecision is what the store records about an action's approval.
type StoredDecision struct {
	State  string // DecisionApproved, DecisionRejected, DecisionUndecided, DecisionEnded
	Status string // the action's status
	By     string // approver or rejecter
}

// callerWorkflow names the workflow that runs the calling activity; empty
// outside an activity, which then owns nothing.
func callerWorkflow(ctx context.Context) string {
	if !activity.IsActivity(ctx) {
		return ""
	}
	return activity.GetInfo(ctx).WorkflowExecution.ID
}

// ownedBy refuses a caller that is not the workflow the store records:
// a workflow started by hand for someone else's action or run.
func ownedBy(ctx context.Context, kind, id, recorded string) error {
	caller := callerWorkflow(ctx)
	if caller != "" && caller == recorded {
		return nil
	}
	activity.GetLogger(ctx).Warn("suspicious: a workflow acted on a record that is not its own; refused",
		"record", kind, "id", id, "workflow_id", caller, "recorded_workflow_id", recorded)
	return temporal.NewNonRetryableApplicationError(
		fmt.Sprintf("workflow %q is not the workflow of %s %s", caller, kind, id), ErrTypeNotOwner, nil)
}

// ownedAction reads an action and checks that the caller is its workflow.
func (a *Activities) ownedAction(ctx context.Context, actionID string) (*store.Action, error) {
	act, err := a.Store.GetAction(ctx, actionID)
	if err != nil {
		return nil, permanentIfNotFound(err)
	}
	if err := ownedBy(ctx, "action", act.ID, act.WorkflowID); err != nil {
		return nil, err
	}
	return act, nil
}

// ReadActionDecision reports the approval decision the store records, for
// an Action workflow woken by a signal: the signal itself proves nothing.
func (a *Activities) ReadActionDecision(ctx context.Context, actionID string) (StoredDecision, error) {
	act, err := a.ownedAction(ctx, actionID)
	if err != nil {
		return StoredDecision{}, err
	}
	d := StoredDecision{State: DecisionUndecided, Status: act.Status}
	switch {
	case act.Status == store.ActionRejected || act.RejectedBy != "":
		d.State, d.By = DecisionRejected, act.RejectedBy
	case act.Status == store.ActionCompleted || act.Status == store.ActionFailed:
		d.State = DecisionEnded
	case act.Status == store.ActionPendingApproval && act.ApprovedByID != "":
		d.State, d.By = DecisionApproved, act.ApprovedBy
	}
	return d, nil
}

// refusal explains why the store refused an execution claim, from act as
// read after the refusal. The claim itself decided; this only names the
// reason, and when it finds none (the store changed in between) the error
// is retryable.
func (a *Activities) refusal(ctx context.Context, act *store.Action) error {
	ks, err := a.Store.KillSwitch(ctx)
	if err != nil {
		return err
	}
	refuse := func(typ, format string, args ...any) error {
		msg := fmt.Sprintf(format, args...)
		activity.GetLogger(ctx).Warn("execution refused by the store", "action_id", act.ID, "reason", msg)
		return temporal.NewNonRetryableApplicationError(msg, typ, nil)
	}
	switch {
	case ks.Active:
		return temporal.NewNonRetryableApplicationError("kill switch active: "+ks.Reason, ErrTypeKillSwitch, nil)
	case act.Status == store.ActionRejected || act.RejectedBy != "":
		return refuse(ErrTypeRefused, "refused: the action was rejected by %s", act.RejectedBy)
	case act.Status == store.ActionCompleted || act.Status == store.ActionFailed:
		return refuse(ErrTypeRefused, "refused: the action has already ended (%s)", act.Status)
	case act.ClaimedBy != "" && act.ClaimedBy != act.WorkflowID:
		return refuse(ErrTypeNotOwner, "refused: the action is claimed by workflow %q", act.ClaimedBy)
	case act.Decision == store.DecisionAutoApprove && act.Status == store.ActionPending:
	case act.Decision == store.DecisionRequireApproval && act.ApprovedByID == "":
		return refuse(ErrTypeNotApproved, "refused: no approval at %s level is recorded", act.ApprovalLevel)
	case act.Decision == store.DecisionRequireApproval:
		u, err := a.Store.GetUser(ctx, act.ApprovedByID)
		if err != nil || store.RoleRank(u.Role) < store.RoleRank(act.ApprovalLevel) {
			return refuse(ErrTypeRefused, "refused: approver %s does not hold the %s level", act.ApprovedBy, act.ApprovalLevel)
		}
	default:
		return refuse(ErrTypeNotApproved, "refused: no policy decision is recorded")
	}
	return fmt.Errorf("execution claim of action %s refused while the store shows it may run; retrying", act.ID)
}

// KillSwitchMirror is the kill switch state as the store holds it.
type KillSwitchMirror struct {
	Active bool
	Reason string
	By     string
	At     time.Time
}

// ReadKillSwitch reads the kill switch from the store, the only source of
// its state: the API writes it, the kill switch workflow follows it.
func (a *Activities) ReadKillSwitch(ctx context.Context) (KillSwitchMirror, error) {
	ks, err := a.Store.KillSwitch(ctx)
	if err != nil {
		return KillSwitchMirror{}, err
	}
	return KillSwitchMirror{Active: ks.Active, Reason: ks.Reason, By: ks.ChangedBy, At: ks.ChangedAt}, nil
}

// MirrorKillSwitch is what kill switch runs recorded before the store
// became the only source of the state call on every signal. It no longer
// writes: a signal's payload is never trusted, and the API writes the
// store itself. A payload that disagrees with the store is logged.
func (a *Activities) MirrorKillSwitch(ctx context.Context, m KillSwitchMirror) error {
	ks, err := a.Store.KillSwitch(ctx)
	if err == nil && ks.Active != m.Active {
		activity.GetLogger(ctx).Warn("suspicious: kill switch signal disagrees with the store; the store stands",
			"signal_active", m.Active, "store_active", ks.Active)
	}
	return nil
}
