package store_test

import (
	"context"
	"testing"

	"github.com/google/uuid"

	"github.com/vigil-soc/vigil/internal/testenv"
	"github.com/vigil-soc/vigil/store"
)

// TestHandOverActionOnlyFromItsUnclaimedOwner: a playbook run hands an
// action it owns to the action's own workflow only while nobody claimed
// it; any other workflow's hand-over changes nothing.
func TestHandOverActionOnlyFromItsUnclaimedOwner(t *testing.T) {
	st := testenv.OpenStore(t)
	ctx := context.Background()
	const run = "playbook-run/e1"
	newAction := func(outcome string, claim bool) string {
		a := &store.Action{ID: uuid.NewString(), ActionType: "isolate_host", RequestedBy: "x", WorkflowID: run}
		if err := st.CreateAction(ctx, a); err != nil {
			t.Fatal(err)
		}
		if err := st.RecordDecision(ctx, a.ID, store.ActionDecision{Outcome: outcome, ApprovalLevel: store.RoleSenior, Reason: "r"}); err != nil {
			t.Fatal(err)
		}
		if claim {
			if ok, err := claims(st.ClaimAction(ctx, a.ID, run)); err != nil || !ok {
				t.Fatalf("claim by its run: %v %v", ok, err)
			}
		}
		return a.ID
	}
	cases := []struct {
		name, from string
		id         string
		want       bool
	}{
		{"waiting for approval, by its run", run, newAction(store.DecisionRequireApproval, false), true},
		{"by another workflow", "playbook-run/other", newAction(store.DecisionRequireApproval, false), false},
		{"by the action's own id", "action/x", newAction(store.DecisionRequireApproval, false), false},
		{"already claimed by its run", run, newAction(store.DecisionAutoApprove, true), false},
		{"rejected by policy", run, newAction(store.DecisionDeny, false), false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			to := "action/" + c.id
			ok, err := st.HandOverAction(ctx, c.id, c.from, to)
			if err != nil || ok != c.want {
				t.Fatalf("HandOverAction = %v, %v; want %v", ok, err, c.want)
			}
			a, err := st.GetAction(ctx, c.id)
			if err != nil {
				t.Fatal(err)
			}
			if want := map[bool]string{true: to, false: run}[c.want]; a.WorkflowID != want {
				t.Fatalf("owner %q, want %q", a.WorkflowID, want)
			}
		})
	}
}
