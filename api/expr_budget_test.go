package api_test

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/vigil-soc/vigil/internal/testenv"
	"github.com/vigil-soc/vigil/store"
)

// TestPolicyRefusesNestedIterationAtWrite posts the rule that kept a
// worker spinning for minutes: three nested walks over a 2000-element
// range. It is refused with the position of the walk that goes over the
// budget.
func TestPolicyRefusesNestedIterationAtWrite(t *testing.T) {
	manager := keyFor(t, "manager")
	for _, tc := range []struct {
		condition    string
		line, column float64
		message      string
	}{
		{`let r = 1..2000; all(r, {all(r, {all(r, {# > 0})})})`, 1, 26, "nested iteration"},
		{"action.type == \"isolate_host\" &&\n  len(1..100000000) > 0", 2, 8, "range of 100000000 elements"},
	} {
		r := call(t, http.MethodPost, "/api/policies", manager, map[string]any{
			"name": uniqueRuleName(t, "spin"), "condition": tc.condition, "action": "auto_approve",
		})
		expectStatus(t, r, http.StatusUnprocessableEntity)
		det := r.errDetails()
		msg, _ := det["condition"].(string)
		if r.errCode() != "validation_error" || !strings.Contains(msg, tc.message) {
			t.Fatalf("refusal: %s", r.Raw)
		}
		pos, _ := det["condition_position"].(map[string]any)
		if pos["line"] != tc.line || pos["column"] != tc.column {
			t.Errorf("condition_position %v, want line %v column %v", pos, tc.line, tc.column)
		}
	}
}

// TestPolicyOverBudgetFailsClosedQuickly stores, around the API as an old
// row would be, a rule that passes no write-time check and would walk 10^11
// steps for one marked action. Every such action is escalated to manager
// approval within a second, naming the budget, and an unrelated action
// requested at the same time goes through.
func TestPolicyOverBudgetFailsClosedQuickly(t *testing.T) {
	token := "spin-" + randomSuffix()
	rule := &store.Policy{
		Name: uniqueRuleName(t, "spin"), Action: "auto_approve", Enabled: true, Priority: 100,
		Condition: `let r = 1..(action.parameters.title == "` + token + `" ? 4800 : 0); ` +
			`all(r, {all(r, {all(r, {# > 0})})})`,
	}
	if err := env.store.CreatePolicy(context.Background(), rule); err != nil {
		t.Fatal(err)
	}
	key := keyFor(t, store.RoleAnalyst)

	var wg sync.WaitGroup
	spun := make([]response, 3)
	took := make([]time.Duration, 3)
	for i := range spun {
		wg.Go(func() {
			start := time.Now()
			spun[i] = call(t, http.MethodPost, "/api/actions/execute", key,
				map[string]any{"action": "create_ticket", "parameters": map[string]any{"title": token}})
			took[i] = time.Since(start)
		})
	}
	other := call(t, http.MethodPost, "/api/actions/execute", key,
		map[string]any{"action": "create_ticket", "parameters": map[string]any{"title": "routine " + token}})
	wg.Wait()

	expectStatus(t, other, http.StatusCreated)
	if other.data()["status"] != "completed" {
		t.Errorf("unrelated action: %s", other.Raw)
	}
	for i, r := range spun {
		expectStatus(t, r, http.StatusCreated)
		d := r.data()
		if d["status"] != "pending_approval" || d["approval_level"] != "manager" {
			t.Fatalf("over-budget rule did not fail closed: %s", r.Raw)
		}
		got := call(t, http.MethodGet, "/api/actions/"+d["action_id"].(string), key, nil).data()
		if reason, _ := got["decision_reason"].(string); !strings.Contains(reason, "step budget") {
			t.Errorf("decision reason %q does not name the budget", reason)
		}
		// The request includes starting and waiting on a workflow; the
		// evaluation itself stops after well under a second.
		if took[i] > 5*time.Second {
			t.Errorf("request %d took %v", i, took[i])
		}
	}
}

// spinPlaybook gates a ticket on condition.
func spinPlaybook(name, condition string) string {
	return fmt.Sprintf(`name: %s
steps:
  - name: gate
    condition: '%s'
    then: ticket
    else: stop
  - name: ticket
    action: create_ticket
    parameters:
      title: "{{ incident.number }}"
`, name, condition)
}

// TestPlaybookConditionOverBudget: a condition that is visibly too costly
// is refused when the playbook is saved, with its line and column; one
// whose cost shows only at run time fails the run, naming the budget,
// instead of spinning inside the workflow.
func TestPlaybookConditionOverBudget(t *testing.T) {
	manager := keyFor(t, store.RoleManager)
	r := call(t, http.MethodPost, "/api/playbooks", manager, map[string]any{
		"content": spinPlaybook("spin-"+randomSuffix(), `let r = 1..2000; all(r, {all(r, {all(r, {# > 0})})})`)})
	expectStatus(t, r, http.StatusUnprocessableEntity)
	if raw := string(r.Raw); !strings.Contains(raw, `"line":4`) || !strings.Contains(raw, "nested iteration") ||
		!strings.Contains(raw, "column 26") {
		t.Fatalf("refusal: %s", raw)
	}

	p := createPlaybook(t, spinPlaybook("spin-"+randomSuffix(),
		`let r = 1..(len(incident.number) * 400); all(r, {all(r, {all(r, {# > 0})})})`))
	key := keyFor(t, store.RoleAnalyst)
	inc := createIncident(t, key, map[string]any{"incident_type": "phishing", "source": "mail", "severity": "high", "raw_data": phishingPayload})
	run := call(t, http.MethodPost, "/api/playbooks/"+p["id"].(string)+"/run", key, map[string]any{"incident_id": inc["id"]})
	if run.Status != http.StatusCreated && run.Status != http.StatusAccepted {
		t.Fatalf("run: %s", run.Raw)
	}
	execID := run.data()["execution_id"].(string)
	var d response
	testenv.Eventually(t, 30*time.Second, func() bool {
		d = call(t, http.MethodGet, "/api/playbooks/"+p["id"].(string)+"/executions/"+execID, key, nil)
		return d.data()["status"] == "failed"
	}, "playbook run did not fail: %s", rawOf{&d})
	if !strings.Contains(string(d.Raw), "exceeded its step budget") {
		t.Fatalf("failed run does not name the budget: %s", d.Raw)
	}
	actions := call(t, http.MethodGet, "/api/incidents/"+inc["id"].(string)+"/actions", key, nil).Body["data"].([]any)
	if len(actions) != 0 {
		t.Fatalf("%d actions from a run whose gate failed", len(actions))
	}
}

// rawOf prints a response's body when a polled condition fails.
type rawOf struct{ r *response }

func (w rawOf) String() string { return string(w.r.Raw) }
