package api_test

import (
	"context"
	"net/http"
	"testing"
	"time"

	"go.temporal.io/api/enums/v1"

	"github.com/vigil-soc/vigil/connectors/simulated"
	"github.com/vigil-soc/vigil/internal/testenv"
	"github.com/vigil-soc/vigil/store"
	"github.com/vigil-soc/vigil/workflows"
)

// waitSignalHandled waits until the workflow has completed a workflow task
// after the last signal it received, so whatever the signal could do has
// been done.
func waitSignalHandled(t *testing.T, workflowID string) {
	t.Helper()
	testenv.Eventually(t, 20*time.Second, func() bool {
		it := env.temporal.GetWorkflowHistory(context.Background(), workflowID, "", false, enums.HISTORY_EVENT_FILTER_TYPE_ALL_EVENT)
		signalled, handled := false, false
		for it.HasNext() {
			ev, err := it.Next()
			if err != nil {
				return false
			}
			switch ev.GetEventType() {
			case enums.EVENT_TYPE_WORKFLOW_EXECUTION_SIGNALED:
				signalled, handled = true, false
			case enums.EVENT_TYPE_WORKFLOW_TASK_COMPLETED:
				handled = signalled
			}
		}
		return handled
	}, "workflow %s did not handle its signal", workflowID)
}

// resumesAfterLastSignal counts the signals a workflow sent to others after
// the last signal it received.
func resumesAfterLastSignal(t *testing.T, workflowID string) int {
	t.Helper()
	it := env.temporal.GetWorkflowHistory(context.Background(), workflowID, "", false, enums.HISTORY_EVENT_FILTER_TYPE_ALL_EVENT)
	n := 0
	for it.HasNext() {
		ev, err := it.Next()
		if err != nil {
			t.Fatal(err)
		}
		switch ev.GetEventType() {
		case enums.EVENT_TYPE_WORKFLOW_EXECUTION_SIGNALED:
			n = 0
		case enums.EVENT_TYPE_SIGNAL_EXTERNAL_WORKFLOW_EXECUTION_INITIATED:
			n++
		}
	}
	return n
}

// pendingIsolation requests an isolate_host that waits for senior approval.
func pendingIsolation(t *testing.T) string {
	t.Helper()
	r := call(t, http.MethodPost, "/api/actions/execute", keyFor(t, store.RoleAnalyst),
		map[string]any{"action": "isolate_host", "parameters": map[string]any{"host_id": "ws-" + randomSuffix()}})
	expectStatus(t, r, http.StatusCreated)
	if r.data()["status"] != "pending_approval" {
		t.Fatalf("isolate_host: %s", r.Raw)
	}
	return r.data()["action_id"].(string)
}

func actionStage(t *testing.T, id string) string {
	t.Helper()
	v, err := env.temporal.QueryWorkflow(context.Background(), workflows.ActionWorkflowID(id), "", workflows.QueryActionStage)
	if err != nil {
		t.Fatal(err)
	}
	var stage string
	if err := v.Get(&stage); err != nil {
		t.Fatal(err)
	}
	return stage
}

// TestRawApproveSignalDoesNotExecute sends `approve` straight to a pending
// isolate_host's workflow, as the Temporal CLI or Web UI would, with the
// payloads an attacker might pick: the connector is never called and the
// action still waits; a real approval afterwards runs it exactly once.
func TestRawApproveSignalDoesNotExecute(t *testing.T) {
	ctx := context.Background()
	id := pendingIsolation(t)
	wf := workflows.ActionWorkflowID(id)
	for _, payload := range []any{map[string]any{}, workflows.ApproveSignal{By: "admin", Comment: "looks fine"}} {
		if err := env.temporal.SignalWorkflow(ctx, wf, "", workflows.SignalApprove, payload); err != nil {
			t.Fatal(err)
		}
		waitSignalHandled(t, wf)
	}
	if n, _ := simulated.CallCount(ctx, env.store, id); n != 0 {
		t.Fatalf("a raw approve signal reached the connector %d times", n)
	}
	a, err := env.store.GetAction(ctx, id)
	if err != nil || a.Status != store.ActionPendingApproval || a.ApprovedBy != "" {
		t.Fatalf("action after raw approve signals: %+v %v", a, err)
	}
	if stage := actionStage(t, id); stage != workflows.StageAwaitingApproval {
		t.Fatalf("stage after raw approve signals: %q", stage)
	}
	ok := call(t, http.MethodPost, "/api/actions/"+id+"/approve", keyFor(t, store.RoleSenior), nil)
	expectStatus(t, ok, http.StatusOK)
	if ok.data()["status"] != "completed" {
		t.Fatalf("real approval after forged ones: %s", ok.Raw)
	}
	if n, _ := simulated.CallCount(ctx, env.store, id); n != 1 {
		t.Fatalf("%d connector calls after a real approval, want 1", n)
	}
}

// TestRejectedInStoreNeverExecutes records a rejection whose signal never
// arrived, then sends a raw approve: the workflow reads the rejection and
// ends without calling the connector.
func TestRejectedInStoreNeverExecutes(t *testing.T) {
	ctx := context.Background()
	id := pendingIsolation(t)
	// The rejection as the API records it, with its signal lost.
	if won, err := env.store.Reject(ctx, id, "a-senior", "known admin tool"); err != nil || !won {
		t.Fatalf("reject in store: %v %v", won, err)
	}
	if err := env.temporal.SignalWorkflow(ctx, workflows.ActionWorkflowID(id), "", workflows.SignalApprove, map[string]any{}); err != nil {
		t.Fatal(err)
	}
	testenv.Eventually(t, 20*time.Second, func() bool {
		d, err := env.temporal.DescribeWorkflowExecution(ctx, workflows.ActionWorkflowID(id), "")
		return err == nil && d.WorkflowExecutionInfo.CloseTime != nil
	}, "the rejected action's workflow did not end")
	if n, _ := simulated.CallCount(ctx, env.store, id); n != 0 {
		t.Fatalf("a rejected action reached the connector %d times", n)
	}
	if a, _ := env.store.GetAction(ctx, id); a.Status != store.ActionRejected {
		t.Fatalf("status %q, want rejected", a.Status)
	}
}

// TestRawKillSwitchSignalCannotLiftTheHalt: a manager halts automation
// through the API, then a raw kill-switch-set {"Active": false} arrives.
// The store and the workflow's query still say active, the parked action
// stays parked without a connector call, and the API's deactivation still
// wakes it at once.
func TestRawKillSwitchSignalCannotLiftTheHalt(t *testing.T) {
	ctx := context.Background()
	manager := keyFor(t, store.RoleManager)
	analyst := keyFor(t, store.RoleAnalyst)
	setKillSwitch(t, manager, true)
	t.Cleanup(func() { setKillSwitch(t, manager, false) })
	r := call(t, http.MethodPost, "/api/actions/execute", analyst,
		map[string]any{"action": "create_ticket", "parameters": map[string]any{"title": "held " + randomSuffix()}})
	expectStatus(t, r, http.StatusAccepted)
	id := r.data()["action_id"].(string)
	testenv.Eventually(t, 10*time.Second, func() bool {
		return actionStage(t, id) == workflows.StageParked
	}, "action never parked")

	if err := env.temporal.SignalWorkflow(ctx, workflows.KillSwitchWorkflowID, "", workflows.SignalKillSwitchSet,
		map[string]any{"Active": false, "Reason": "", "By": "mallory"}); err != nil {
		t.Fatal(err)
	}
	waitSignalHandled(t, workflows.KillSwitchWorkflowID)
	if ks, err := env.store.KillSwitch(ctx); err != nil || !ks.Active {
		t.Fatalf("store after a raw deactivation signal: %+v %v", ks, err)
	}
	got := call(t, http.MethodGet, "/api/kill-switch", analyst, nil).data()
	if got["active"] != true || got["source"] != "workflow" {
		t.Fatalf("kill switch after a raw deactivation signal: %v", got)
	}
	if n := resumesAfterLastSignal(t, workflows.KillSwitchWorkflowID); n != 0 {
		t.Fatalf("the raw deactivation signal woke %d parked workflows", n)
	}
	if stage := actionStage(t, id); stage != workflows.StageParked {
		t.Fatalf("stage after a raw deactivation signal: %q", stage)
	}
	if n, _ := simulated.CallCount(ctx, env.store, id); n != 0 {
		t.Fatalf("connector called %d times while the store says halted", n)
	}

	off := time.Now()
	setKillSwitch(t, manager, false)
	testenv.Eventually(t, 5*time.Second, func() bool {
		a, err := env.store.GetAction(ctx, id)
		return err == nil && a.Status == store.ActionCompleted
	}, "parked action did not resume after the API's deactivation")
	if waited := time.Since(off); waited > 2*time.Second {
		t.Errorf("resume took %s after deactivation", waited)
	}
}
