package store_test

import (
	"context"
	"testing"

	"github.com/google/uuid"

	"github.com/vigil-soc/vigil/internal/testenv"
	"github.com/vigil-soc/vigil/store"
)

// TestClaimFollowsTheStoredDecision: the one conditional update
// before a connector call holds only for what the store records as
// allowed, and only for the action's own workflow.
func TestClaimFollowsTheStoredDecision(t *testing.T) {
	st := testenv.OpenStore(t)
	ctx := context.Background()
	user := func(role string) *store.User {
		name := role + "-" + uuid.NewString()[:8]
		u, err := st.CreateUser(ctx, store.NewUser{Username: name, Email: name + "@example.com", Role: role})
		if err != nil {
			t.Fatal(err)
		}
		return u
	}
	analyst, senior := user(store.RoleAnalyst), user(store.RoleSenior)
	// newAction records an action with policy's outcome and whatever else
	// the case does to it.
	newAction := func(outcome, level string, then func(id string)) *store.Action {
		a := &store.Action{ID: uuid.NewString(), ActionType: "isolate_host", RequestedBy: "x"}
		a.WorkflowID = "action/" + a.ID
		if err := st.CreateAction(ctx, a); err != nil {
			t.Fatal(err)
		}
		if outcome != "" {
			if err := st.RecordDecision(ctx, a.ID, store.ActionDecision{Outcome: outcome, ApprovalLevel: level, Reason: "r"}); err != nil {
				t.Fatal(err)
			}
		}
		if then != nil {
			then(a.ID)
		}
		return a
	}
	approveBy := func(u *store.User) func(string) {
		return func(id string) {
			if won, err := st.ClaimApproval(ctx, id, u, ""); err != nil || !won {
				t.Fatalf("approve: %v %v", won, err)
			}
		}
	}
	cases := []struct {
		name     string
		action   *store.Action
		workflow func(a *store.Action) string
		want     bool
	}{
		{"auto-approved", newAction(store.DecisionAutoApprove, "", nil), nil, true},
		{"undecided", newAction("", "", nil), nil, false},
		{"awaiting approval", newAction(store.DecisionRequireApproval, "senior", nil), nil, false},
		{"approved at the level", newAction(store.DecisionRequireApproval, "senior", approveBy(senior)), nil, true},
		{"approved below the level", newAction(store.DecisionRequireApproval, "senior", approveBy(analyst)), nil, false},
		{"rejected", newAction(store.DecisionRequireApproval, "senior", func(id string) {
			_, _ = st.Reject(ctx, id, "sam", "no")
		}), nil, false},
		{"denied by policy", newAction(store.DecisionDeny, "", nil), nil, false},
		{"ended", newAction(store.DecisionAutoApprove, "", func(id string) {
			_, _ = st.CompleteOwnAction(ctx, id, "", "system", store.ActionResult{Success: true})
		}), nil, false},
		{"another workflow", newAction(store.DecisionAutoApprove, "", nil), func(*store.Action) string { return "forged" }, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			wf := tc.action.WorkflowID
			if tc.workflow != nil {
				wf = tc.workflow(tc.action)
			}
			got, err := claims(st.ClaimAction(ctx, tc.action.ID, wf))
			if err != nil || got != tc.want {
				t.Fatalf("claim = %v (%v), want %v", got, err, tc.want)
			}
			if got {
				// The same workflow may claim again after a crash.
				if again, err := claims(st.ClaimAction(ctx, tc.action.ID, wf)); err != nil || !again {
					t.Fatalf("second claim by the same workflow = %v (%v)", again, err)
				}
			}
		})
	}

	t.Run("kill switch on", func(t *testing.T) {
		a := newAction(store.DecisionAutoApprove, "", nil)
		if err := st.SetKillSwitch(ctx, store.KillSwitchState{Active: true, Reason: "halt"}); err != nil {
			t.Fatal(err)
		}
		if got, err := claims(st.ClaimAction(ctx, a.ID, a.WorkflowID)); err != nil || got {
			t.Fatalf("claim under the kill switch = %v (%v)", got, err)
		}
		if err := st.SetKillSwitch(ctx, store.KillSwitchState{Active: false}); err != nil {
			t.Fatal(err)
		}
		if got, err := claims(st.ClaimAction(ctx, a.ID, a.WorkflowID)); err != nil || !got {
			t.Fatalf("claim after the kill switch = %v (%v)", got, err)
		}
	})
}

// claims reports whether ClaimAction's claim held.
func claims(a *store.Action, err error) (bool, error) { return a != nil, err }
