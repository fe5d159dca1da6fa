package store_test

import (
	"context"
	"testing"

	"github.com/google/uuid"

	"github.com/vigil-soc/vigil/internal/testenv"
	"github.com/vigil-soc/vigil/store"
)

// Only the action's own workflow ends it, once; any other workflow, a
// repeat or a malformed id changes nothing.
func TestEndOwnActionOnlyByItsWorkflowOnce(t *testing.T) {
	st := testenv.OpenStore(t)
	ctx := context.Background()
	a := &store.Action{ID: uuid.NewString(), ActionType: "isolate_host", RequestedBy: "x"}
	a.WorkflowID = "action/" + a.ID
	if err := st.CreateAction(ctx, a); err != nil {
		t.Fatal(err)
	}
	res := store.ActionResult{Success: true, Message: "done"}
	for _, c := range []struct {
		name, id, workflow string
		want               bool
	}{
		{"another workflow", a.ID, "action/" + uuid.NewString(), false},
		{"malformed id", "not-an-id", a.WorkflowID, false},
		{"its own workflow", a.ID, a.WorkflowID, true},
		{"a repeat", a.ID, a.WorkflowID, false},
	} {
		done, err := st.CompleteOwnAction(ctx, c.id, c.workflow, "system", res)
		if err != nil || done != c.want {
			t.Fatalf("%s: done %v err %v, want %v", c.name, done, err, c.want)
		}
	}
	if done, err := st.FailOwnAction(ctx, a.ID, a.WorkflowID, "late"); err != nil || done {
		t.Fatalf("failing an ended action: done %v err %v", done, err)
	}
	got, err := st.GetAction(ctx, a.ID)
	if err != nil || got.Status != store.ActionCompleted || got.Result.V == nil || got.Result.V.Message != "done" {
		t.Fatalf("stored %+v err %v", got, err)
	}
}
