package api_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"go.temporal.io/sdk/client"

	"github.com/vigil-soc/vigil/api"
	"github.com/vigil-soc/vigil/app"
	"github.com/vigil-soc/vigil/connectors/simulated"
	"github.com/vigil-soc/vigil/internal/testenv"
	"github.com/vigil-soc/vigil/store"
	"github.com/vigil-soc/vigil/workflows"
)

// rawDecide sends the decide update straight to an action's workflow, as
// the Temporal CLI or Web UI would, and returns the workflow's answer.
func rawDecide(t *testing.T, actionID string, payload any) workflows.DecideResult {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	h, err := env.temporal.UpdateWorkflow(ctx, client.UpdateWorkflowOptions{
		WorkflowID: workflows.ActionWorkflowID(actionID), UpdateName: workflows.UpdateDecide,
		Args: []any{payload}, WaitForStage: client.WorkflowUpdateStageCompleted,
	})
	if err != nil {
		t.Fatalf("raw decide update: %v", err)
	}
	var res workflows.DecideResult
	if err := h.Get(ctx, &res); err != nil {
		t.Fatalf("raw decide update result: %v", err)
	}
	return res
}

// TestRawDecideUpdateDoesNotExecute sends the decide update straight to a
// pending isolate_host's workflow, with the payloads an attacker might
// pick: the workflow answers that it still awaits approval, the connector
// is never called, and a real approval afterwards runs it exactly once.
func TestRawDecideUpdateDoesNotExecute(t *testing.T) {
	ctx := context.Background()
	id := pendingIsolation(t)
	for _, payload := range []any{workflows.DecideRequest{}, map[string]any{"Approved": true, "By": "admin"}} {
		if res := rawDecide(t, id, payload); res.Stage != workflows.StageAwaitingApproval || res.Status != "" {
			t.Fatalf("raw decide update answered %+v", res)
		}
	}
	if n, _ := simulated.CallCount(ctx, env.store, id); n != 0 {
		t.Fatalf("a raw decide update reached the connector %d times", n)
	}
	if a, err := env.store.GetAction(ctx, id); err != nil || a.Status != store.ActionPendingApproval || a.ApprovedBy != "" {
		t.Fatalf("action after raw decide updates: %+v %v", a, err)
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

// TestRejectedInStoreRawDecideEnds records a rejection without waking the
// workflow, then sends a raw decide update: the workflow reads the
// rejection and ends without calling the connector.
func TestRejectedInStoreRawDecideEnds(t *testing.T) {
	ctx := context.Background()
	id := pendingIsolation(t)
	if won, err := env.store.Reject(ctx, id, "a-senior", "known admin tool"); err != nil || !won {
		t.Fatalf("reject in store: %v %v", won, err)
	}
	if res := rawDecide(t, id, workflows.DecideRequest{}); res.Stage != workflows.StageDone || res.Status != "rejected" {
		t.Fatalf("raw decide after a stored rejection answered %+v", res)
	}
	if n, _ := simulated.CallCount(ctx, env.store, id); n != 0 {
		t.Fatalf("a rejected action reached the connector %d times", n)
	}
}

// TestApproveWithoutWorkerStandsAndRuns approves while no worker runs: the
// approval stands in the store, the API answers 202, and the action runs
// exactly once when a worker comes back.
func TestApproveWithoutWorkerStandsAndRuns(t *testing.T) {
	ctx := context.Background()
	id := pendingIsolation(t)
	env.worker.Stop()
	restarted := false
	t.Cleanup(func() {
		if !restarted {
			env.worker = newTestWorker(t)
		}
	})
	srv := httptest.NewServer(api.NewRouter(api.Options{Store: env.store, Temporal: env.temporal, Settings: env.settings,
		Log: testenv.Logger(), Version: "test", Connectors: app.NewConnectors(env.store), ActionWait: time.Second}))
	defer srv.Close()
	r := callURL(t, srv.URL, http.MethodPost, "/api/actions/"+id+"/approve", keyFor(t, store.RoleSenior), nil)
	expectStatus(t, r, http.StatusAccepted)
	if r.data()["status"] != "pending_approval" || r.data()["approved_by"] == "" {
		t.Fatalf("approval without a worker: %s", r.Raw)
	}
	env.worker = newTestWorker(t)
	restarted = true
	testenv.Eventually(t, 90*time.Second, func() bool {
		a, err := env.store.GetAction(ctx, id)
		return err == nil && a.Status == store.ActionCompleted
	}, "approved action did not complete once a worker was back")
	if n, _ := simulated.CallCount(ctx, env.store, id); n != 1 {
		t.Fatalf("%d connector calls, want exactly 1", n)
	}
}
