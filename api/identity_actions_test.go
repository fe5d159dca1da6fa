package api_test

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/vigil-soc/vigil/app"
	"github.com/vigil-soc/vigil/connectors/simulated"
	"github.com/vigil-soc/vigil/store"
)

// TestDisableUserNeedsSeniorAndRollsBack: disabling an account waits for a
// senior, then disables it at the (simulated) identity provider, and the
// rollback enables it again.
func TestDisableUserNeedsSeniorAndRollsBack(t *testing.T) {
	requester := keyFor(t, store.RoleAnalyst)
	incID := newTestIncident(t, requester)
	user := "u-" + randomSuffix() + "@corp.example"
	r := call(t, http.MethodPost, "/api/incidents/"+incID+"/actions", requester,
		map[string]any{"action": "disable_user", "parameters": map[string]any{"user": user, "reason": "impossible travel"}})
	expectStatus(t, r, http.StatusCreated)
	if r.data()["status"] != "pending_approval" || r.data()["approval_level"] != "senior" {
		t.Fatalf("disable_user request: %s", r.Raw)
	}
	id := r.data()["action_id"].(string)
	low := call(t, http.MethodPost, "/api/actions/"+id+"/approve", keyFor(t, store.RoleAnalyst), nil)
	if low.errCode() != "insufficient_approval_level" {
		t.Fatalf("analyst approving: %s", low.Raw)
	}
	ok := call(t, http.MethodPost, "/api/actions/"+id+"/approve", keyFor(t, store.RoleSenior), nil)
	expectStatus(t, ok, http.StatusOK)
	if ok.data()["status"] != "completed" || !strings.Contains(string(ok.Raw), "[simulated]") {
		t.Fatalf("approval answer: %s", ok.Raw)
	}
	set := app.NewConnectors(env.store)
	if s, _ := simulated.UserStatus(context.Background(), set, user); s != simulated.UserDisabled {
		t.Fatalf("user after approval: %s", s)
	}
	rb := call(t, http.MethodPost, "/api/actions/"+id+"/rollback", requester, map[string]any{"reason": "false positive"})
	if rb.Status != http.StatusCreated && rb.Status != http.StatusOK && rb.Status != http.StatusAccepted {
		t.Fatalf("rollback: %s", rb.Raw)
	}
	// Enabling the account again needs a senior too.
	if rb.data()["status"] != "pending_approval" || rb.data()["approval_level"] != "senior" {
		t.Fatalf("rollback: %s", rb.Raw)
	}
	rbID := rb.data()["rollback_action_id"].(string)
	if got := call(t, http.MethodGet, "/api/actions/"+rbID, requester, nil); got.data()["action_type"] != "enable_user" {
		t.Fatalf("rollback action: %s", got.Raw)
	}
	expectStatus(t, call(t, http.MethodPost, "/api/actions/"+rbID+"/approve", keyFor(t, store.RoleSenior), nil), http.StatusOK)
	if s, _ := simulated.UserStatus(context.Background(), set, user); s != simulated.UserEnabled {
		t.Fatalf("user after rollback: %s", s)
	}
}
