package store

import (
	"context"
	"fmt"
	"strings"

	"gorm.io/gorm/clause"
)

// Policy outcomes as the store records them in Action.Decision.
const (
	DecisionAutoApprove     = "auto_approve"
	DecisionRequireApproval = "require_approval"
	DecisionDeny            = "deny"
)

// roleRankSQL is a SQL expression ranking the role named by column as
// RoleRank does; unknown names rank as unknown, which is below every role
// for a user and above every role for a required level.
func roleRankSQL(column string, unknown int) string {
	var b strings.Builder
	b.WriteString("CASE " + column)
	for i, r := range Roles {
		fmt.Fprintf(&b, " WHEN '%s' THEN %d", r, i)
	}
	fmt.Fprintf(&b, " ELSE %d END", unknown)
	return b.String()
}

// claimCondition is everything the store must show before an action's
// connector call starts, checked in the one statement that records the
// claim: policy auto-approved it, or a user whose role meets its level
// approved it; nobody rejected it; it has not ended; no other workflow
// claimed it; and the kill switch is off.
var claimCondition = `id = ? AND workflow_id = ? AND claimed_by IN ('', ?) AND rejected_by = '' AND (
	(status = 'pending' AND decision = 'auto_approve')
	OR (status = 'pending_approval' AND decision = 'require_approval' AND approved_by_id <> '' AND EXISTS (
		SELECT 1 FROM users u WHERE u.id = actions.approved_by_id AND ` +
	roleRankSQL("u.role", -1) + ` >= ` + roleRankSQL("actions.approval_level", len(Roles)) + `))
) AND NOT EXISTS (SELECT 1 FROM kill_switch k WHERE k.id = 1 AND k.active)`

// ClaimAction claims an action for execution by the workflow named
// workflowID, which must be the action's own, and answers the action as
// the claim left it. It answers nil, and changes nothing, unless the store
// shows a decision that lets the action run (see claimCondition); a
// malformed id is refused likewise. The same workflow may claim again, so
// a retry after a crash proceeds; the connector then deduplicates on the
// action id.
func (s *Store) ClaimAction(ctx context.Context, id, workflowID string) (*Action, error) {
	if checkID(id) != nil {
		return nil, nil
	}
	now := Now()
	var a Action
	res := s.db.WithContext(ctx).Model(&a).Clauses(clause.Returning{}).Where(claimCondition, id, workflowID, workflowID).
		Updates(map[string]any{"claimed_by": workflowID, "claimed_at": now, "updated_at": now})
	if res.Error != nil {
		return nil, fmt.Errorf("claim action for execution: %w", res.Error)
	}
	if res.RowsAffected != 1 {
		return nil, nil
	}
	return &a, nil
}
