package activities

import (
	"context"
	"fmt"

	"github.com/vigil-soc/vigil/policy"
	"github.com/vigil-soc/vigil/store"
)

// AutomationRole is the role policy sees for actions no person requested
// (automated playbook runs, triage recommendations); it ranks below every
// human role.
const AutomationRole = "automation"

// inheritedLevel is the approval level a rollback needs: the level the
// original action needed, or the reverse type's own default if higher.
// Undoing a containment is as sensitive as the containment was.
func (a *Activities) inheritedLevel(ctx context.Context, rb *store.Action, typeDefault string) (string, error) {
	orig, err := a.Store.GetAction(ctx, rb.RollbackOf)
	if err != nil {
		return "", permanentIfNotFound(fmt.Errorf("action %s rolled back by %s: %w", rb.RollbackOf, rb.ID, err))
	}
	return higherLevel(orig.ApprovalLevel, typeDefault), nil
}

// higherLevel returns the stricter of two approval levels; "" is none.
func higherLevel(a, b string) string {
	switch {
	case a == "":
		return b
	case b == "":
		return a
	case store.RoleRank(b) > store.RoleRank(a):
		return b
	}
	return a
}

// rollbackDecision applies a rollback's inherited level to policy's
// decision: a requester whose role meets the level stands as its approver
// and the rollback runs at once; anyone else waits for an approver of that
// level. A policy denial stands, and a stricter policy level raises the bar.
func rollbackDecision(d policy.Decision, inherited string, requester policy.RequesterEnv) policy.Decision {
	if d.Outcome == policy.OutcomeDeny {
		return d
	}
	need := inherited
	if d.Outcome == policy.OutcomeRequireApproval {
		need = higherLevel(need, d.ApprovalLevel)
	}
	switch {
	case need == "":
		return d
	case requester.Role != AutomationRole && requester.RoleRank >= store.RoleRank(need):
		d.Outcome, d.ApprovalLevel = policy.OutcomeAutoApprove, ""
		d.Reason = fmt.Sprintf("rollback requested by %s (%s), whose role meets the %s approval it needs; %s",
			requester.Username, requester.Role, need, d.Reason)
	default:
		d.Outcome, d.ApprovalLevel = policy.OutcomeRequireApproval, need
		d.Reason = fmt.Sprintf("rollback needs %s approval, as the action it undoes did; %s", need, d.Reason)
	}
	return d
}
