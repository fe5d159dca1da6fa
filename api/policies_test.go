package api_test

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/vigil-soc/vigil/store"
)

// uniqueRuleName keeps rules of different tests apart in the shared database.
// uniqueRuleName names a rule after its test, and removes the test's rules
// when it ends: rules apply to every action in the shared test server.
func uniqueRuleName(t *testing.T, name string) string {
	t.Cleanup(func() {
		rules, _ := env.store.ListPolicies(context.Background())
		for _, r := range rules {
			if strings.Contains(r.Name, " "+t.Name()+" ") {
				_ = env.store.DeletePolicy(context.Background(), r.ID)
			}
		}
	})
	return fmt.Sprintf("%s %s %d", name, t.Name(), time.Now().UnixNano())
}

func TestPolicyLifecycle(t *testing.T) {
	manager := keyFor(t, "manager")
	name := uniqueRuleName(t, "critical isolation")
	r := call(t, http.MethodPost, "/api/policies", manager, map[string]any{
		"name": name, "description": "isolating hosts on critical incidents needs a senior",
		"condition": `action.type == "isolate_host" && incident.severity == "critical"`,
		"action":    "require_approval", "approval_level": "senior", "priority": 40,
	})
	expectStatus(t, r, http.StatusCreated)
	d := r.data()
	id, _ := d["id"].(string)
	if id == "" || d["name"] != name || d["action"] != "require_approval" || d["approval_level"] != "senior" ||
		d["priority"] != 40.0 || d["enabled"] != true || d["created_at"] == nil || d["updated_at"] == nil {
		t.Fatalf("create response: %v", d)
	}
	if _, ok := d["created_by"]; ok {
		t.Error("response carries created_by, which the interface does not define")
	}

	viewer := keyFor(t, "viewer")
	r = call(t, http.MethodGet, "/api/policies/"+id, viewer, nil)
	expectStatus(t, r, http.StatusOK)
	if r.data()["condition"] != d["condition"] || r.data()["description"] != d["description"] {
		t.Fatalf("get: %v", r.data())
	}

	// A partial update keeps every field it does not name.
	r = call(t, http.MethodPut, "/api/policies/"+id, manager, map[string]any{"enabled": false, "priority": 1000000})
	expectStatus(t, r, http.StatusOK)
	u := r.data()
	if u["enabled"] != false || u["priority"] != 1000000.0 || u["approval_level"] != "senior" || u["name"] != name ||
		u["created_at"] != d["created_at"] {
		t.Fatalf("partial update: %v", u)
	}

	r = call(t, http.MethodGet, "/api/policies", viewer, nil)
	expectStatus(t, r, http.StatusOK)
	rows, _ := r.Body["data"].([]any)
	found := false
	for i, row := range rows {
		m := row.(map[string]any)
		if m["id"] == id {
			found = true
			if i != 0 {
				t.Errorf("highest priority rule listed at %d, want first", i)
			}
		}
	}
	if !found {
		t.Fatalf("list does not include %s: %s", id, r.Raw)
	}

	r = call(t, http.MethodDelete, "/api/policies/"+id, manager, nil)
	expectStatus(t, r, http.StatusNoContent)
	r = call(t, http.MethodGet, "/api/policies/"+id, viewer, nil)
	expectStatus(t, r, http.StatusNotFound)
	r = call(t, http.MethodDelete, "/api/policies/"+id, manager, nil)
	expectStatus(t, r, http.StatusNotFound)

	events, _, err := env.store.ListAudit(context.Background(), store.AuditFilter{TargetID: id, Page: 1, PerPage: 10})
	if err != nil {
		t.Fatal(err)
	}
	actions := map[string]bool{}
	for _, e := range events {
		if e.Outcome == store.OutcomeSuccess {
			actions[e.Action] = e.Details.V["name"] == name
		}
	}
	for _, a := range []string{"policy.create", "policy.update", "policy.delete"} {
		if !actions[a] {
			t.Errorf("no successful %s audit event naming the rule: %v", a, actions)
		}
	}
}

func TestPolicyValidation(t *testing.T) {
	manager := keyFor(t, "manager")
	valid := func(changes map[string]any) map[string]any {
		body := map[string]any{"name": uniqueRuleName(t, "rule"), "condition": "true", "action": "deny"}
		for k, v := range changes {
			if v == nil {
				delete(body, k)
			} else {
				body[k] = v
			}
		}
		return body
	}
	cases := []struct {
		name     string
		body     any
		fields   []string
		position []float64 // want condition_position {line, column}
	}{
		{"missing everything", map[string]any{}, []string{"name", "condition", "action"}, nil},
		{"missing condition", valid(map[string]any{"condition": nil}), []string{"condition"}, nil},
		{"bad condition", valid(map[string]any{"condition": "incident.present and\n  incident.severity > 3"}), []string{"condition"}, []float64{2, 21}},
		{"unknown field in condition", valid(map[string]any{"condition": "action.typo == 1"}), []string{"condition"}, []float64{1, 8}},
		{"require_approval without level", valid(map[string]any{"action": "require_approval"}), []string{"approval_level"}, nil},
		{"unknown level", valid(map[string]any{"action": "require_approval", "approval_level": "ciso"}), []string{"approval_level"}, nil},
		{"unknown action", valid(map[string]any{"action": "allow"}), []string{"action"}, nil},
		{"priority out of range", valid(map[string]any{"priority": 1000001}), []string{"priority"}, nil},
		{"priority not an integer", valid(map[string]any{"priority": "high"}), []string{"priority"}, nil},
		{"unknown body field", valid(map[string]any{"actoin": "deny"}), []string{"actoin"}, nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := call(t, http.MethodPost, "/api/policies", manager, tc.body)
			expectStatus(t, r, http.StatusUnprocessableEntity)
			if r.errCode() != "validation_error" {
				t.Fatalf("code %q", r.errCode())
			}
			det := r.errDetails()
			for _, f := range tc.fields {
				if _, ok := det[f]; !ok {
					t.Errorf("details do not name %q: %s", f, r.Raw)
				}
			}
			pos, hasPos := det["condition_position"].(map[string]any)
			switch {
			case tc.position == nil && hasPos:
				t.Errorf("unexpected condition_position: %s", r.Raw)
			case tc.position != nil && (!hasPos || pos["line"] != tc.position[0] || pos["column"] != tc.position[1]):
				t.Errorf("condition_position %v, want line %v column %v", det["condition_position"], tc.position[0], tc.position[1])
			}
		})
	}

	// An update is checked as the merged rule.
	r := call(t, http.MethodPost, "/api/policies", manager, valid(nil))
	expectStatus(t, r, http.StatusCreated)
	id := r.data()["id"].(string)
	for name, body := range map[string]map[string]any{
		"approval_level": {"action": "require_approval"},
		"condition":      {"condition": "incident.nope"},
		"body":           {},
	} {
		r := call(t, http.MethodPut, "/api/policies/"+id, manager, body)
		expectStatus(t, r, http.StatusUnprocessableEntity)
		if _, ok := r.errDetails()[name]; !ok {
			t.Errorf("update with %v: details do not name %q: %s", body, name, r.Raw)
		}
	}
	r = call(t, http.MethodPut, "/api/policies/"+id, manager, map[string]any{"action": "require_approval", "approval_level": "manager"})
	expectStatus(t, r, http.StatusOK)
	r = call(t, http.MethodPut, "/api/policies/00000000-0000-0000-0000-000000000000", manager, map[string]any{"enabled": true})
	expectStatus(t, r, http.StatusNotFound)
}

func TestPolicyNeedsManager(t *testing.T) {
	body := map[string]any{"name": uniqueRuleName(t, "rule"), "condition": "true", "action": "auto_approve"}
	for _, role := range []string{"viewer", "analyst", "senior"} {
		r := call(t, http.MethodPost, "/api/policies", keyFor(t, role), body)
		expectStatus(t, r, http.StatusForbidden)
	}
	r := call(t, http.MethodPost, "/api/policies", env.adminKey, body)
	expectStatus(t, r, http.StatusCreated)
	id := r.data()["id"].(string)
	r = call(t, http.MethodPut, "/api/policies/"+id, keyFor(t, "analyst"), map[string]any{"enabled": false})
	expectStatus(t, r, http.StatusForbidden)
	r = call(t, http.MethodDelete, "/api/policies/"+id, keyFor(t, "senior"), nil)
	expectStatus(t, r, http.StatusForbidden)
}

func TestPolicyDuplicateName(t *testing.T) {
	manager := keyFor(t, "manager")
	name := uniqueRuleName(t, "Block Hosts")
	r := call(t, http.MethodPost, "/api/policies", manager, map[string]any{"name": name, "condition": "true", "action": "deny"})
	expectStatus(t, r, http.StatusCreated)
	r = call(t, http.MethodPost, "/api/policies", manager, map[string]any{"name": "  " + strings.ToUpper(name), "condition": "false", "action": "deny"})
	expectStatus(t, r, http.StatusConflict)
	if r.errCode() != "conflict" {
		t.Fatalf("code %q", r.errCode())
	}
	r = call(t, http.MethodPost, "/api/policies", manager, map[string]any{"name": name + " 2", "condition": "true", "action": "deny"})
	expectStatus(t, r, http.StatusCreated)
	r = call(t, http.MethodPut, "/api/policies/"+r.data()["id"].(string), manager, map[string]any{"name": name})
	expectStatus(t, r, http.StatusConflict)
}
