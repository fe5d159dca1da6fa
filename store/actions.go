package store

import (
	"context"
	"fmt"
	"time"

	"gorm.io/gorm"
	"gorm.io/gorm/clause"
)

// Action statuses, as SPEC.md names them.
const (
	ActionPending         = "pending"
	ActionPendingApproval = "pending_approval"
	ActionCompleted       = "completed"
	ActionFailed          = "failed"
	ActionRejected        = "rejected"
)

// ActionStatuses lists every action status.
var ActionStatuses = []string{ActionPending, ActionPendingApproval, ActionCompleted, ActionFailed, ActionRejected}

// ActionResult is what executing an action produced.
type ActionResult struct {
	Success bool           `json:"success"`
	Message string         `json:"message"`
	Output  map[string]any `json:"output,omitempty"`
}

// Action is one requested response action and everything that happened to it.
type Action struct {
	ID              string `gorm:"primaryKey"`
	IncidentID      *string
	ActionType      string
	Status          string
	ApprovalLevel   string
	Parameters      JSON[map[string]any]
	RequestedBy     string
	RequestedByID   string
	RequestedAt     time.Time
	ExecutedAt      *time.Time
	ExecutedBy      string
	ApprovedBy      string
	ApprovedAt      *time.Time
	ApprovalComment string
	RejectedBy      string
	RejectedAt      *time.Time
	RejectionReason string
	Result          JSON[*ActionResult]
	Error           string
	PolicyRuleID    string
	PolicyRuleName  string
	DecisionReason  string
	RollbackOf      string
	RolledBackBy    string
	WorkflowID      string
	ExpiresAt       *time.Time
	UpdatedAt       time.Time

	// Decision is policy's outcome (auto_approve, require_approval, deny);
	// empty until policy has decided.
	Decision string
	// ApprovedByID is the approver's user id, so the execution claim can
	// check the approver's role.
	ApprovedByID string
	// ClaimedBy names the workflow that claimed the action for execution.
	ClaimedBy string
	ClaimedAt *time.Time
}

// CreateAction inserts a new action in status pending.
func (s *Store) CreateAction(ctx context.Context, a *Action) error {
	newPendingAction(a, Now())
	if err := s.db.WithContext(ctx).Create(a).Error; err != nil {
		return fmt.Errorf("create action: %w", translate(err))
	}
	return nil
}

// newPendingAction readies a as a freshly requested action.
func newPendingAction(a *Action, now time.Time) {
	a.Status = ActionPending
	a.RequestedAt, a.UpdatedAt = now, now
	if a.Parameters.V == nil {
		a.Parameters = NewJSON(map[string]any{})
	}
}

// createActionsTx creates pending actions in one statement inside tx; an
// action whose id exists already is left as it is.
func createActionsTx(tx *gorm.DB, as []*Action) error {
	if len(as) == 0 {
		return nil
	}
	now := Now()
	for _, a := range as {
		newPendingAction(a, now)
	}
	if err := tx.Clauses(clause.OnConflict{Columns: []clause.Column{{Name: "id"}}, DoNothing: true}).Create(as).Error; err != nil {
		return fmt.Errorf("create actions: %w", err)
	}
	return nil
}

// GetAction reads one action.
func (s *Store) GetAction(ctx context.Context, id string) (*Action, error) {
	if err := checkID(id); err != nil {
		return nil, err
	}
	var a Action
	if err := s.db.WithContext(ctx).Take(&a, "id = ?", id).Error; err != nil {
		return nil, translate(err)
	}
	return &a, nil
}

// ActionFilter selects actions; zero values mean no filter.
type ActionFilter struct {
	Status        string
	ActionType    string
	IncidentID    string
	ApprovalLevel string
	Limit         int
}

// ListActions returns actions newest first.
func (s *Store) ListActions(ctx context.Context, f ActionFilter) ([]Action, error) {
	q := s.db.WithContext(ctx).Model(&Action{})
	if f.Status != "" {
		q = q.Where("status = ?", f.Status)
	}
	if f.ActionType != "" {
		q = q.Where("action_type = ?", f.ActionType)
	}
	if f.IncidentID != "" {
		q = q.Where("incident_id = ?", f.IncidentID)
	}
	if f.ApprovalLevel != "" {
		q = q.Where("approval_level = ?", f.ApprovalLevel)
	}
	if f.Limit <= 0 {
		f.Limit = 100
	}
	var out []Action
	if err := q.Order("requested_at DESC, id DESC").Limit(f.Limit).Find(&out).Error; err != nil {
		return nil, fmt.Errorf("list actions: %w", err)
	}
	return out, nil
}

// updateAction applies changes to an action only while it is in one of the
// given statuses, and reports whether it did: the guard makes every
// transition happen at most once, whoever races for it. A non-empty event
// is recorded in the same transaction when the transition happens.
func (s *Store) updateAction(ctx context.Context, id string, from []string, changes map[string]any, event EventType) (bool, error) {
	return s.updateOwnAction(ctx, id, "", from, changes, event)
}

// updateOwnAction is updateAction that, when workflowID is not empty, also
// requires the action to be that workflow's own. A transition without an
// event is a single statement; a malformed id changes nothing.
func (s *Store) updateOwnAction(ctx context.Context, id, workflowID string, from []string, changes map[string]any, event EventType) (bool, error) {
	if checkID(id) != nil {
		return false, nil
	}
	changes["updated_at"] = Now()
	where, args := "id = ? AND status IN ?", []any{id, from}
	if workflowID != "" {
		where, args = where+" AND workflow_id = ?", append(args, workflowID)
	}
	if event == "" {
		res := s.db.WithContext(ctx).Model(&Action{}).Where(where, args...).Updates(changes)
		if res.Error != nil {
			return false, fmt.Errorf("update action: %w", res.Error)
		}
		return res.RowsAffected == 1, nil
	}
	done := false
	err := s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		matched, notify, err := updateNotifying(tx, "actions", where, args, changes, event)
		if err != nil || !matched {
			return err
		}
		done = true
		if !notify {
			return nil
		}
		return actionEvent(tx, event, id, nil)
	})
	if err != nil {
		return false, fmt.Errorf("update action: %w", err)
	}
	return done, nil
}

// ActionDecision is the outcome of policy for one action.
type ActionDecision struct {
	Outcome       string // DecisionAutoApprove, DecisionRequireApproval, DecisionDeny
	ApprovalLevel string
	RuleID        string
	RuleName      string
	Reason        string
	ExpiresAt     *time.Time
}

// RecordDecision stores the policy outcome on a pending action: it moves to
// pending_approval, to rejected (deny), or stays pending to execute.
func (s *Store) RecordDecision(ctx context.Context, id string, d ActionDecision) error {
	changes := map[string]any{
		"decision": d.Outcome, "policy_rule_id": d.RuleID, "policy_rule_name": d.RuleName, "decision_reason": d.Reason,
	}
	var event EventType
	switch d.Outcome {
	case DecisionRequireApproval:
		event = EventActionPendingApproval
		changes["status"] = ActionPendingApproval
		changes["approval_level"] = d.ApprovalLevel
		changes["expires_at"] = d.ExpiresAt
	case DecisionDeny:
		now := Now()
		changes["status"] = ActionRejected
		changes["rejected_by"] = "policy:" + d.RuleName
		changes["rejected_at"] = now
		changes["rejection_reason"] = d.Reason
	}
	_, err := s.updateAction(ctx, id, []string{ActionPending}, changes, event)
	return err
}

// ClaimApproval records the approver on a pending_approval action. Exactly
// one of any number of racing approvers and rejecters gets true.
func (s *Store) ClaimApproval(ctx context.Context, id string, approver *User, comment string) (bool, error) {
	res := s.db.WithContext(ctx).Model(&Action{}).
		Where("id = ? AND status = ? AND approved_by = '' AND rejected_by = ''", id, ActionPendingApproval).
		Updates(map[string]any{"approved_by": approver.Username, "approved_by_id": approver.ID, "approved_at": Now(),
			"approval_comment": comment, "updated_at": Now()})
	if res.Error != nil {
		return false, fmt.Errorf("claim approval: %w", res.Error)
	}
	return res.RowsAffected == 1, nil
}

// ReleaseApproval undoes a claim whose signal could not be delivered, so
// the action can be approved again.
func (s *Store) ReleaseApproval(ctx context.Context, id, approver string) error {
	return s.db.WithContext(ctx).Model(&Action{}).
		Where("id = ? AND status = ? AND approved_by = ?", id, ActionPendingApproval, approver).
		Updates(map[string]any{"approved_by": "", "approved_by_id": "", "approved_at": nil, "approval_comment": "",
			"updated_at": Now()}).Error
}

// Reject moves a pending_approval action to rejected. Exactly one of any
// number of racing approvers and rejecters succeeds.
func (s *Store) Reject(ctx context.Context, id, by, reason string) (bool, error) {
	res := s.db.WithContext(ctx).Model(&Action{}).
		Where("id = ? AND status = ? AND approved_by = '' AND rejected_by = ''", id, ActionPendingApproval).
		Updates(map[string]any{"status": ActionRejected, "rejected_by": by, "rejected_at": Now(),
			"rejection_reason": reason, "updated_at": Now()})
	if res.Error != nil {
		return false, fmt.Errorf("reject action: %w", res.Error)
	}
	return res.RowsAffected == 1, nil
}

// CompleteOwnAction records a successful execution by the action's own
// workflow, named by workflowID (any workflow when empty); repeating it is
// a no-op. It reports whether it recorded the result: false when the
// action has ended already or is not that workflow's.
func (s *Store) CompleteOwnAction(ctx context.Context, id, workflowID, executedBy string, r ActionResult) (bool, error) {
	return s.updateOwnAction(ctx, id, workflowID, []string{ActionPending, ActionPendingApproval}, map[string]any{
		"status": ActionCompleted, "executed_at": Now(), "executed_by": executedBy, "result": NewJSON(&r),
	}, EventActionCompleted)
}

// FailAction records why an action ended without running; repeating it is
// a no-op.
func (s *Store) FailAction(ctx context.Context, id, reason string) error {
	_, err := s.FailOwnAction(ctx, id, "", reason)
	return err
}

// FailOwnAction is FailAction for the action's own workflow, reporting
// whether it recorded the failure, as CompleteOwnAction does.
func (s *Store) FailOwnAction(ctx context.Context, id, workflowID, reason string) (bool, error) {
	return s.updateOwnAction(ctx, id, workflowID, []string{ActionPending, ActionPendingApproval}, map[string]any{
		"status": ActionFailed, "error": reason,
	}, EventActionFailed)
}

// ClaimRollback links a completed action to the rollback action that will
// reverse it. Only the first claim succeeds.
func (s *Store) ClaimRollback(ctx context.Context, originalID, rollbackID string) (bool, error) {
	res := s.db.WithContext(ctx).Model(&Action{}).
		Where("id = ? AND status = ? AND rolled_back_by = ''", originalID, ActionCompleted).
		Updates(map[string]any{"rolled_back_by": rollbackID, "updated_at": Now()})
	if res.Error != nil {
		return false, fmt.Errorf("claim rollback: %w", res.Error)
	}
	return res.RowsAffected == 1, nil
}

// ReleaseRollback undoes a rollback claim whose action never started.
func (s *Store) ReleaseRollback(ctx context.Context, originalID, rollbackID string) error {
	return s.db.WithContext(ctx).Model(&Action{}).
		Where("id = ? AND rolled_back_by = ?", originalID, rollbackID).
		Updates(map[string]any{"rolled_back_by": "", "updated_at": Now()}).Error
}

// KillSwitchState is the global halt of automation.
type KillSwitchState struct {
	ID        int `gorm:"primaryKey"`
	Active    bool
	Reason    string
	ChangedBy string
	ChangedAt time.Time
}

// TableName keeps the singleton's table name readable.
func (KillSwitchState) TableName() string { return "kill_switch" }

// KillSwitch reads the kill switch; never set means inactive.
func (s *Store) KillSwitch(ctx context.Context) (KillSwitchState, error) {
	var k KillSwitchState
	err := s.db.WithContext(ctx).Take(&k, "id = 1").Error
	if err == gorm.ErrRecordNotFound {
		return KillSwitchState{ID: 1}, nil
	}
	if err != nil {
		return k, fmt.Errorf("read kill switch: %w", err)
	}
	return k, nil
}

// SetKillSwitch writes the kill switch state; a change of state records
// its event in the same transaction.
func (s *Store) SetKillSwitch(ctx context.Context, k KillSwitchState) error {
	k.ID = 1
	if k.ChangedAt.IsZero() {
		k.ChangedAt = Now()
	}
	err := s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		var before KillSwitchState
		if err := tx.Take(&before, "id = 1").Error; err != nil && err != gorm.ErrRecordNotFound {
			return err
		}
		if err := tx.Save(&k).Error; err != nil {
			return err
		}
		if before.Active == k.Active {
			return nil
		}
		event := EventKillSwitchDeactivated
		if k.Active {
			event = EventKillSwitchActivated
		}
		return recordEvent(tx, event, nil, map[string]any{"reason": k.Reason, "changed_by": k.ChangedBy,
			"changed_at": k.ChangedAt.Format(time.RFC3339)})
	})
	if err != nil {
		return fmt.Errorf("write kill switch: %w", err)
	}
	return nil
}
