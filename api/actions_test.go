package api_test

import (
	"context"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/vigil-soc/vigil/app"
	"github.com/vigil-soc/vigil/connectors/simulated"
	"github.com/vigil-soc/vigil/internal/testenv"
	"github.com/vigil-soc/vigil/store"
)

func newTestIncident(t *testing.T, key string) string {
	t.Helper()
	return createIncident(t, key, map[string]any{"incident_type": "phishing", "source": "email-gateway", "severity": "high"})["id"].(string)
}

func TestActionTypes(t *testing.T) {
	r := call(t, http.MethodGet, "/api/actions/types", keyFor(t, store.RoleViewer), nil)
	expectStatus(t, r, http.StatusOK)
	types := map[string]map[string]any{}
	for _, v := range r.Body["data"].([]any) {
		m := v.(map[string]any)
		types[m["name"].(string)] = m
	}
	for _, name := range []string{"quarantine_email", "block_sender", "isolate_host", "unisolate_host", "scan_host", "create_ticket", "notify_user"} {
		if types[name] == nil {
			t.Fatalf("type %s missing", name)
		}
	}
	if types["isolate_host"]["default_approval_level"] != "senior" || types["isolate_host"]["supports_rollback"] != true {
		t.Fatalf("isolate_host: %v", types["isolate_host"])
	}
	if types["notify_user"]["supports_rollback"] != false {
		t.Fatal("notify_user must not support rollback")
	}
}

func TestActionRequestValidation(t *testing.T) {
	key := keyFor(t, store.RoleAnalyst)
	id := newTestIncident(t, key)
	cases := map[string]map[string]any{
		"action":                {"action": "launch_missiles", "parameters": map[string]any{}},
		"parameters.message_id": {"action": "quarantine_email", "parameters": map[string]any{}},
		"parameters.host_id":    {"action": "isolate_host", "parameters": map[string]any{"host_id": 42}},
	}
	for field, body := range cases {
		r := call(t, http.MethodPost, "/api/incidents/"+id+"/actions", key, body)
		expectStatus(t, r, http.StatusUnprocessableEntity)
		if _, ok := r.errDetails()[field]; !ok {
			t.Errorf("details do not name %q: %s", field, r.Raw)
		}
	}
	expectStatus(t, call(t, http.MethodPost, "/api/incidents/00000000-0000-4000-8000-000000000000/actions", key,
		map[string]any{"action": "quarantine_email", "parameters": map[string]any{"message_id": "m"}}), http.StatusNotFound)
	expectStatus(t, call(t, http.MethodPost, "/api/actions/execute", keyFor(t, store.RoleViewer),
		map[string]any{"action": "quarantine_email", "parameters": map[string]any{"message_id": "m"}}), http.StatusForbidden)
}

func TestActionExecutesAtOnceAndRollsBack(t *testing.T) {
	ctx := context.Background()
	key := keyFor(t, store.RoleAnalyst)
	incID := newTestIncident(t, key)
	msg := "msg-" + randomSuffix()
	r := call(t, http.MethodPost, "/api/incidents/"+incID+"/actions", key,
		map[string]any{"action": "quarantine_email", "parameters": map[string]any{"message_id": msg, "reason": "phish"}})
	expectStatus(t, r, http.StatusCreated)
	d := r.data()
	if d["status"] != "completed" || d["result"].(map[string]any)["success"] != true {
		t.Fatalf("auto-executed action: %s", r.Raw)
	}
	actionID := d["action_id"].(string)
	conns := app.NewConnectors(env.store)
	if st, _ := conns.Email.MessageStatus(ctx, msg); st != "quarantined" {
		t.Fatalf("message status after quarantine: %q", st)
	}

	got := call(t, http.MethodGet, "/api/actions/"+actionID, key, nil).data()
	inc, _ := got["incident"].(map[string]any)
	if inc["incident_number"] == nil || got["executed_by"] != "system" || got["executed_at"] == nil {
		t.Fatalf("single action read: %v", got)
	}
	list := call(t, http.MethodGet, "/api/incidents/"+incID+"/actions", key, nil)
	if n := len(list.Body["data"].([]any)); n != 1 {
		t.Fatalf("incident actions: %d", n)
	}
	filtered := call(t, http.MethodGet, "/api/actions?status=completed&action_type=quarantine_email&incident_id="+incID, key, nil)
	if n := len(filtered.Body["data"].([]any)); n != 1 {
		t.Fatalf("filtered actions: %d", n)
	}
	expectStatus(t, call(t, http.MethodGet, "/api/actions?status=done", key, nil), http.StatusUnprocessableEntity)

	rb := call(t, http.MethodPost, "/api/actions/"+actionID+"/rollback", key, map[string]any{"reason": "false positive"})
	expectStatus(t, rb, http.StatusCreated)
	rd := rb.data()
	if rd["original_action_id"] != actionID || rd["rollback_action_id"] == nil || rd["status"] != "completed" {
		t.Fatalf("rollback: %s", rb.Raw)
	}
	if st, _ := conns.Email.MessageStatus(ctx, msg); st != "released" {
		t.Fatalf("message status after rollback: %q", st)
	}
	again := call(t, http.MethodPost, "/api/actions/"+actionID+"/rollback", key, nil)
	expectStatus(t, again, http.StatusConflict)
	if again.errCode() != "already_rolled_back" {
		t.Fatalf("second rollback: %s", again.Raw)
	}
	// The release itself cannot be rolled back.
	norb := call(t, http.MethodPost, "/api/actions/"+rd["rollback_action_id"].(string)+"/rollback", key, nil)
	expectStatus(t, norb, http.StatusBadRequest)
	if norb.errCode() != "rollback_not_supported" {
		t.Fatalf("rollback of release_email: %s", norb.Raw)
	}
}

func TestExecuteWithoutIncident(t *testing.T) {
	key := keyFor(t, store.RoleAnalyst)
	r := call(t, http.MethodPost, "/api/actions/execute", key,
		map[string]any{"action": "notify_user", "parameters": map[string]any{"user": "jane@corp.example", "message": "reset your password"}})
	expectStatus(t, r, http.StatusCreated)
	if r.data()["status"] != "completed" {
		t.Fatalf("execute: %s", r.Raw)
	}
	got := call(t, http.MethodGet, "/api/actions/"+r.data()["action_id"].(string), key, nil).data()
	if _, has := got["incident_id"]; has {
		t.Fatalf("direct action carries an incident: %v", got)
	}
	rb := call(t, http.MethodPost, "/api/actions/"+r.data()["action_id"].(string)+"/rollback", key, nil)
	expectStatus(t, rb, http.StatusBadRequest)
	if rb.errCode() != "rollback_not_supported" {
		t.Fatalf("notify_user rollback: %s", rb.Raw)
	}
}

func TestApprovalFlow(t *testing.T) {
	requester := keyFor(t, store.RoleSenior)
	incID := newTestIncident(t, requester)
	host := "ws-" + randomSuffix()
	r := call(t, http.MethodPost, "/api/incidents/"+incID+"/actions", requester,
		map[string]any{"action": "isolate_host", "parameters": map[string]any{"host_id": host, "reason": "beaconing"}})
	expectStatus(t, r, http.StatusCreated)
	if r.data()["status"] != "pending_approval" || r.data()["approval_level"] != "senior" || r.data()["message"] == nil {
		t.Fatalf("isolate_host request: %s", r.Raw)
	}
	id := r.data()["action_id"].(string)

	low := call(t, http.MethodPost, "/api/actions/"+id+"/approve", keyFor(t, store.RoleAnalyst), nil)
	expectStatus(t, low, http.StatusForbidden)
	det := low.errDetails()
	if low.errCode() != "insufficient_approval_level" || det["required_level"] != "senior" || det["your_level"] != "analyst" {
		t.Fatalf("analyst approving senior action: %s", low.Raw)
	}
	viewer := call(t, http.MethodPost, "/api/actions/"+id+"/approve", keyFor(t, store.RoleViewer), nil)
	expectStatus(t, viewer, http.StatusForbidden)
	det = viewer.errDetails()
	if viewer.errCode() != "insufficient_approval_level" || det["required_level"] != "senior" || det["your_level"] != "viewer" {
		t.Fatalf("viewer approving: %s", viewer.Raw)
	}
	self := call(t, http.MethodPost, "/api/actions/"+id+"/approve", requester, nil)
	expectStatus(t, self, http.StatusForbidden)
	if self.errCode() != "self_approval_forbidden" {
		t.Fatalf("self approval: %s", self.Raw)
	}
	pending := call(t, http.MethodGet, "/api/actions?status=pending_approval&approval_level=senior", requester, nil)
	if !containsID(pending.Body["data"].([]any), id) {
		t.Fatal("pending action not listed by status and level")
	}

	ok := call(t, http.MethodPost, "/api/actions/"+id+"/approve", keyFor(t, store.RoleManager), map[string]any{"comment": "confirmed C2"})
	expectStatus(t, ok, http.StatusOK)
	d := ok.data()
	res, _ := d["result"].(map[string]any)
	if d["status"] != "completed" || d["approved_by"] == "" || d["approved_at"] == nil || res["isolation_id"] == nil || res["status"] != "isolated" {
		t.Fatalf("approval answer: %s", ok.Raw)
	}
	state, _ := app.NewConnectors(env.store).EDR.Host(context.Background(), host)
	if state.Status != "isolated" {
		t.Fatalf("host after approval: %+v", state)
	}
	late := call(t, http.MethodPost, "/api/actions/"+id+"/approve", keyFor(t, store.RoleAdmin), nil)
	expectStatus(t, late, http.StatusConflict)
	if late.errCode() != "action_not_pending" {
		t.Fatalf("approving a completed action: %s", late.Raw)
	}
	expectStatus(t, call(t, http.MethodPost, "/api/actions/"+id+"/reject", keyFor(t, store.RoleAdmin), map[string]any{"reason": "x"}), http.StatusConflict)
}

func containsID(list []any, id string) bool {
	for _, v := range list {
		if v.(map[string]any)["id"] == id {
			return true
		}
	}
	return false
}

func TestRejection(t *testing.T) {
	requester := keyFor(t, store.RoleAnalyst)
	r := call(t, http.MethodPost, "/api/actions/execute", requester,
		map[string]any{"action": "isolate_host", "parameters": map[string]any{"host_id": "ws-" + randomSuffix()}})
	id := r.data()["action_id"].(string)
	approver := keyFor(t, store.RoleSenior)
	expectStatus(t, call(t, http.MethodPost, "/api/actions/"+id+"/reject", approver, map[string]any{}), http.StatusUnprocessableEntity)
	rej := call(t, http.MethodPost, "/api/actions/"+id+"/reject", approver, map[string]any{"reason": "known admin tool"})
	expectStatus(t, rej, http.StatusOK)
	d := rej.data()
	if d["status"] != "rejected" || d["rejected_by"] == "" || d["rejected_at"] == nil || d["rejection_reason"] != "known admin tool" {
		t.Fatalf("rejection: %s", rej.Raw)
	}
	expectStatus(t, call(t, http.MethodPost, "/api/actions/"+id+"/approve", approver, nil), http.StatusConflict)
	testenv.Eventually(t, 10*time.Second, func() bool {
		desc, err := env.temporal.DescribeWorkflowExecution(context.Background(), "action/"+id, "")
		return err == nil && desc.WorkflowExecutionInfo.CloseTime != nil
	}, "rejected action's workflow did not end")
	if n, _ := simulated.CallCount(context.Background(), env.store, id); n != 0 {
		t.Fatalf("rejected action reached a connector %d times", n)
	}
}

func TestRacingApproversExactlyOneWins(t *testing.T) {
	requester := keyFor(t, store.RoleAnalyst)
	r := call(t, http.MethodPost, "/api/actions/execute", requester,
		map[string]any{"action": "isolate_host", "parameters": map[string]any{"host_id": "ws-" + randomSuffix()}})
	id := r.data()["action_id"].(string)
	const n = 6
	statuses := make(chan int, n)
	var wg sync.WaitGroup
	keys := make([]string, n)
	for i := range keys {
		keys[i] = keyFor(t, store.RoleSenior)
	}
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if i%2 == 0 {
				statuses <- call(t, http.MethodPost, "/api/actions/"+id+"/approve", keys[i], nil).Status
			} else {
				statuses <- call(t, http.MethodPost, "/api/actions/"+id+"/reject", keys[i], map[string]any{"reason": "no"}).Status
			}
		}()
	}
	wg.Wait()
	close(statuses)
	wins, conflicts := 0, 0
	for s := range statuses {
		switch s {
		case http.StatusOK:
			wins++
		case http.StatusConflict:
			conflicts++
		}
	}
	if wins != 1 || conflicts != n-1 {
		t.Fatalf("%d wins and %d conflicts among %d racing deciders", wins, conflicts, n)
	}
	final := call(t, http.MethodGet, "/api/actions/"+id, requester, nil).data()
	calls, _ := simulated.CallCount(context.Background(), env.store, id)
	if (final["status"] == "completed") != (calls == 1) || calls > 1 {
		t.Fatalf("final status %v with %d connector calls", final["status"], calls)
	}
}

func TestPermanentConnectorErrorFailsTheAction(t *testing.T) {
	key := keyFor(t, store.RoleAnalyst)
	r := call(t, http.MethodPost, "/api/actions/execute", key,
		map[string]any{"action": "release_email", "parameters": map[string]any{"message_id": "never-quarantined-" + randomSuffix()}})
	expectStatus(t, r, http.StatusCreated)
	id := r.data()["action_id"].(string)
	// A release needs a second analyst's approval; the connector then refuses it.
	ok := call(t, http.MethodPost, "/api/actions/"+id+"/approve", keyFor(t, store.RoleAnalyst), nil)
	expectStatus(t, ok, http.StatusOK)
	if d := ok.data(); d["status"] != "failed" || d["error"] == nil {
		t.Fatalf("releasing a message that was never quarantined: %s", ok.Raw)
	}
	got := call(t, http.MethodGet, "/api/actions/"+id, key, nil).data()
	if got["status"] != "failed" || got["error"] == "" {
		t.Fatalf("failed action record: %v", got)
	}
}

func TestScanResultsCanBeRead(t *testing.T) {
	key := keyFor(t, store.RoleAnalyst)
	r := call(t, http.MethodPost, "/api/actions/execute", key,
		map[string]any{"action": "scan_host", "parameters": map[string]any{"host_id": "ws-" + randomSuffix(), "scan_type": "full"}})
	expectStatus(t, r, http.StatusCreated)
	res := r.data()["result"].(map[string]any)
	if r.data()["status"] != "completed" || res["scan_id"] == nil || res["status"] != "running" || res["scan_type"] != "full" {
		t.Fatalf("scan_host result lacks the SPEC output fields: %s", r.Raw)
	}
	scan := call(t, http.MethodGet, "/api/actions/"+r.data()["action_id"].(string)+"/scan", key, nil)
	expectStatus(t, scan, http.StatusOK)
	if !strings.Contains(string(scan.Raw), res["scan_id"].(string)) || !strings.Contains(string(scan.Raw), "running") {
		t.Fatalf("scan report: %s", scan.Raw)
	}
	other := call(t, http.MethodPost, "/api/actions/execute", key,
		map[string]any{"action": "create_ticket", "parameters": map[string]any{"title": "not a scan"}})
	expectStatus(t, call(t, http.MethodGet, "/api/actions/"+other.data()["action_id"].(string)+"/scan", key, nil), http.StatusConflict)
}

func TestConnectorHealthReportsTheSimulatedSet(t *testing.T) {
	r := call(t, http.MethodGet, "/api/connectors/health", keyFor(t, store.RoleViewer), nil)
	expectStatus(t, r, http.StatusOK)
	list, _ := r.Body["connectors"].([]any)
	if len(list) != 5 {
		t.Fatalf("%d connectors, want 5: %s", len(list), r.Raw)
	}
	for _, c := range list {
		m := c.(map[string]any)
		if m["status"] != "healthy" || m["simulated"] != true || m["name"] == "" || m["type"] == "" {
			t.Fatalf("connector health entry: %v", m)
		}
		// Every name the list shows can be tested by that name.
		test := call(t, http.MethodPost, "/api/connectors/"+m["name"].(string)+"/test", keyFor(t, store.RoleAdmin), nil)
		expectStatus(t, test, http.StatusOK)
		if test.Body["name"] != m["name"] || test.Body["status"] != "healthy" {
			t.Fatalf("test of %s: %s", m["name"], test.Raw)
		}
	}
}
