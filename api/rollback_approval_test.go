package api_test

import (
	"context"
	"net/http"
	"testing"

	"github.com/vigil-soc/vigil/app"
	"github.com/vigil-soc/vigil/connectors/simulated"
	"github.com/vigil-soc/vigil/store"
)

// approvedIsolation isolates a fresh host with a senior's approval and
// returns the action id and host.
func approvedIsolation(t *testing.T) (string, string) {
	t.Helper()
	host := "ws-" + randomSuffix()
	r := call(t, http.MethodPost, "/api/actions/execute", keyFor(t, store.RoleAnalyst),
		map[string]any{"action": "isolate_host", "parameters": map[string]any{"host_id": host}})
	expectStatus(t, r, http.StatusCreated)
	id := r.data()["action_id"].(string)
	ok := call(t, http.MethodPost, "/api/actions/"+id+"/approve", keyFor(t, store.RoleSenior), nil)
	expectStatus(t, ok, http.StatusOK)
	if ok.data()["status"] != "completed" {
		t.Fatalf("isolation: %s", ok.Raw)
	}
	return id, host
}

func hostStatus(t *testing.T, host string) string {
	t.Helper()
	st, err := app.NewConnectors(env.store).EDR.Host(context.Background(), host)
	if err != nil {
		t.Fatal(err)
	}
	return st.Status
}

// TestUnisolateHostNeedsSeniorApproval: reconnecting a host is as
// dangerous as isolating it, so an analyst's direct request waits.
func TestUnisolateHostNeedsSeniorApproval(t *testing.T) {
	r := call(t, http.MethodPost, "/api/actions/execute", keyFor(t, store.RoleAnalyst),
		map[string]any{"action": "unisolate_host", "parameters": map[string]any{"host_id": "ws-" + randomSuffix()}})
	expectStatus(t, r, http.StatusCreated)
	if r.data()["status"] != "pending_approval" || r.data()["approval_level"] != "senior" {
		t.Fatalf("analyst's unisolate_host: %s", r.Raw)
	}
	if n, _ := simulated.CallCount(context.Background(), env.store, r.data()["action_id"].(string)); n != 0 {
		t.Fatalf("unapproved unisolate_host reached the connector %d times", n)
	}
}

// TestRollbackInheritsTheApprovalLevel: an analyst's rollback of a
// senior-approved isolation waits for a senior; a senior's runs at once.
func TestRollbackInheritsTheApprovalLevel(t *testing.T) {
	t.Run("analyst waits for a senior", func(t *testing.T) {
		id, host := approvedIsolation(t)
		rb := call(t, http.MethodPost, "/api/actions/"+id+"/rollback", keyFor(t, store.RoleAnalyst), map[string]any{"reason": "false positive"})
		expectStatus(t, rb, http.StatusCreated)
		d := rb.data()
		if d["status"] != "pending_approval" || d["approval_level"] != "senior" || d["original_action_id"] != id {
			t.Fatalf("analyst's rollback: %s", rb.Raw)
		}
		if got := hostStatus(t, host); got != "isolated" {
			t.Fatalf("host %s before the rollback is approved", got)
		}
		rbID := d["rollback_action_id"].(string)
		low := call(t, http.MethodPost, "/api/actions/"+rbID+"/approve", keyFor(t, store.RoleAnalyst), nil)
		expectStatus(t, low, http.StatusForbidden)
		ok := call(t, http.MethodPost, "/api/actions/"+rbID+"/approve", keyFor(t, store.RoleSenior), nil)
		expectStatus(t, ok, http.StatusOK)
		if ok.data()["status"] != "completed" || hostStatus(t, host) == "isolated" {
			t.Fatalf("approved rollback: %s, host %s", ok.Raw, hostStatus(t, host))
		}
	})
	t.Run("senior runs at once", func(t *testing.T) {
		id, host := approvedIsolation(t)
		rb := call(t, http.MethodPost, "/api/actions/"+id+"/rollback", keyFor(t, store.RoleSenior), map[string]any{"reason": "false positive"})
		expectStatus(t, rb, http.StatusCreated)
		if rb.data()["status"] != "completed" || rb.data()["rollback_action_id"] == nil {
			t.Fatalf("senior's rollback: %s", rb.Raw)
		}
		if got := hostStatus(t, host); got == "isolated" {
			t.Fatalf("host still %s after the rollback", got)
		}
	})
}
