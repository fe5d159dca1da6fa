package api_test

import (
	"net/http"
	"testing"

	"github.com/vigil-soc/vigil/store"
)

// createRule adds a policy rule and removes it when the test ends, since
// rules apply to every action in the shared test server.
func createRule(t *testing.T, body map[string]any) string {
	t.Helper()
	r := call(t, http.MethodPost, "/api/policies", env.adminKey, body)
	expectStatus(t, r, http.StatusCreated)
	id := r.data()["id"].(string)
	t.Cleanup(func() { call(t, http.MethodDelete, "/api/policies/"+id, env.adminKey, nil) })
	return id
}

func TestPolicyDenyRefusesTheAction(t *testing.T) {
	token := "deny-" + randomSuffix()
	createRule(t, map[string]any{
		"name": "no tickets " + token, "action": "deny", "priority": 10,
		"condition": `action.type == "create_ticket" && action.parameters.title == "` + token + `" && requester.role == "analyst"`,
	})
	key := keyFor(t, store.RoleAnalyst)
	r := call(t, http.MethodPost, "/api/actions/execute", key,
		map[string]any{"action": "create_ticket", "parameters": map[string]any{"title": token}})
	expectStatus(t, r, http.StatusForbidden)
	if r.errCode() != "policy_denied" || r.errDetails()["rule"] != "no tickets "+token {
		t.Fatalf("denied action: %s", r.Raw)
	}
	id := r.errDetails()["action_id"].(string)
	got := call(t, http.MethodGet, "/api/actions/"+id, key, nil).data()
	if got["status"] != "rejected" || got["rejected_by"] != "policy:no tickets "+token {
		t.Fatalf("denied action record: %v", got)
	}
	// A senior is not matched by the rule and goes through.
	ok := call(t, http.MethodPost, "/api/actions/execute", keyFor(t, store.RoleSenior),
		map[string]any{"action": "create_ticket", "parameters": map[string]any{"title": token}})
	expectStatus(t, ok, http.StatusCreated)
}

func TestPolicyCanRequireApprovalAndAutoApprove(t *testing.T) {
	token := "gate-" + randomSuffix()
	createRule(t, map[string]any{
		"name": "manager gate " + token, "action": "require_approval", "approval_level": "manager", "priority": 5,
		"condition": `action.type == "block_sender" && action.parameters.sender endsWith "` + token + `.example" && incident.present && incident.severity == "high"`,
	})
	createRule(t, map[string]any{
		"name": "trusted isolation " + token, "action": "auto_approve", "priority": 5,
		"condition": `action.type == "isolate_host" && action.parameters.host_id == "` + token + `"`,
	})
	key := keyFor(t, store.RoleAnalyst)
	incID := newTestIncident(t, key)
	r := call(t, http.MethodPost, "/api/incidents/"+incID+"/actions", key,
		map[string]any{"action": "block_sender", "parameters": map[string]any{"sender": "ceo@" + token + ".example"}})
	expectStatus(t, r, http.StatusCreated)
	if r.data()["status"] != "pending_approval" || r.data()["approval_level"] != "manager" {
		t.Fatalf("gated block_sender: %s", r.Raw)
	}
	expectStatus(t, call(t, http.MethodPost, "/api/actions/"+r.data()["action_id"].(string)+"/approve", keyFor(t, store.RoleSenior), nil), http.StatusForbidden)

	// The same request without an incident misses the rule: default (none).
	plain := call(t, http.MethodPost, "/api/actions/execute", key,
		map[string]any{"action": "block_sender", "parameters": map[string]any{"sender": "ceo@" + token + ".example"}})
	if plain.data()["status"] != "completed" {
		t.Fatalf("ungated block_sender: %s", plain.Raw)
	}
	// isolate_host defaults to senior approval, but a rule may waive it.
	iso := call(t, http.MethodPost, "/api/actions/execute", key,
		map[string]any{"action": "isolate_host", "parameters": map[string]any{"host_id": token}})
	if iso.data()["status"] != "completed" {
		t.Fatalf("auto-approved isolation: %s", iso.Raw)
	}
}
