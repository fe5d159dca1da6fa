package api_test

import (
	"context"
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/google/uuid"
	"go.temporal.io/sdk/client"

	"github.com/vigil-soc/vigil/internal/testenv"
	"github.com/vigil-soc/vigil/playbook"
	"github.com/vigil-soc/vigil/store"
	"github.com/vigil-soc/vigil/workflows"
)

// namedKey creates a user of the given role and returns its name and a key.
func namedKey(t *testing.T, role string) (string, string) {
	t.Helper()
	name := role + "-" + randomSuffix()
	u, err := env.store.CreateUser(context.Background(), store.NewUser{Username: name, Email: name + "@example.com", Role: role})
	if err != nil {
		t.Fatal(err)
	}
	_, key, err := env.store.CreateAPIKey(context.Background(), u.ID, "test", nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	return name, key
}

func builtinPlaybookID(t *testing.T, name string) string {
	t.Helper()
	for _, v := range call(t, http.MethodGet, "/api/playbooks", env.adminKey, nil).Body["data"].([]any) {
		if p := v.(map[string]any); p["builtin"] == true && p["name"] == name {
			return p["id"].(string)
		}
	}
	t.Fatalf("built-in playbook %q not found", name)
	return ""
}

// incidentAction waits for the incident's action of the given type.
func incidentAction(t *testing.T, incidentID, actionType string, done func(map[string]any) bool) map[string]any {
	t.Helper()
	var found map[string]any
	testenv.Eventually(t, 30*time.Second, func() bool {
		for _, v := range call(t, http.MethodGet, "/api/incidents/"+incidentID+"/actions", env.adminKey, nil).Body["data"].([]any) {
			if a := v.(map[string]any); a["action_type"] == actionType && done(a) {
				found = a
				return true
			}
		}
		return false
	}, "no %s action on incident %s", actionType, incidentID)
	return found
}

// TestPlaybookStarterCannotApproveTheRunsOwnActions: a senior starts the
// built-in malware playbook on a critical incident and tries to approve
// the run's own isolate_host step: 403 self_approval_forbidden, unless the
// general setting allows self-approval. Policy sees the senior too.
func TestPlaybookStarterCannotApproveTheRunsOwnActions(t *testing.T) {
	name, senior := namedKey(t, store.RoleSenior)
	inc := createIncident(t, senior, map[string]any{"incident_type": "malware", "source": "edr", "severity": "critical",
		"raw_data": map[string]any{"HostnameField": "ws-" + randomSuffix()}})
	incID := inc["id"].(string)
	createRule(t, map[string]any{"name": "no scans by seniors " + randomSuffix(), "action": "deny", "priority": 10,
		"condition": fmt.Sprintf(`requester.role == "senior" && requester.username == %q && action.type == "scan_host" && incident.id == %q`, name, incID)})
	r := call(t, http.MethodPost, "/api/playbooks/"+builtinPlaybookID(t, "Malware containment")+"/run", senior,
		map[string]any{"incident_id": incID})
	if r.Status != http.StatusAccepted && r.Status != http.StatusCreated {
		t.Fatalf("run: %s", r.Raw)
	}
	isolation := incidentAction(t, incID, "isolate_host", func(a map[string]any) bool { return a["status"] == "pending_approval" })
	if isolation["requested_by"] != name {
		t.Fatalf("isolate_host requested by %v, want the run's starter %s", isolation["requested_by"], name)
	}
	scan := incidentAction(t, incID, "scan_host", func(map[string]any) bool { return true })
	if scan["status"] != "rejected" || scan["requested_by"] != name {
		t.Fatalf("policy did not see the starter as a senior: %v", scan)
	}

	id := isolation["id"].(string)
	self := call(t, http.MethodPost, "/api/actions/"+id+"/approve", senior, nil)
	expectStatus(t, self, http.StatusForbidden)
	if self.errCode() != "self_approval_forbidden" {
		t.Fatalf("self approval of the run's own step: %s", self.Raw)
	}

	expectStatus(t, call(t, http.MethodPut, "/api/settings/general", env.adminKey, map[string]any{"allow_self_approval": true}), http.StatusOK)
	t.Cleanup(func() {
		call(t, http.MethodPut, "/api/settings/general", env.adminKey, map[string]any{"allow_self_approval": false})
	})
	ok := call(t, http.MethodPost, "/api/actions/"+id+"/approve", senior, nil)
	expectStatus(t, ok, http.StatusOK)
	if ok.data()["status"] != "completed" {
		t.Fatalf("self approval where the setting allows it: %s", ok.Raw)
	}
}

// TestAutomatedRunsRequestAsAutomation: an auto-run playbook's actions
// name the playbook as automated in requested_by, and policy sees their
// requester as automation.
func TestAutomatedRunsRequestAsAutomation(t *testing.T) {
	typ := "auto-req-" + randomSuffix()
	name := "automated " + randomSuffix()
	createPlaybook(t, fmt.Sprintf(`name: %s
triggers:
  incident_type: %s
  auto_run: true
steps:
  - name: ticket
    action: create_ticket
    parameters:
      title: "{{ incident.number }}"
  - name: tell
    action: notify_user
    parameters:
      user: soc-lead@corp.example
      message: "ran"
    continue_on_error: true
`, name, typ))
	createRule(t, map[string]any{"name": "no automated notices " + randomSuffix(), "action": "deny", "priority": 10,
		"condition": fmt.Sprintf(`requester.role == "automation" && requester.role_rank < 0 && incident.type == %q && action.type == "notify_user"`, typ)})
	inc := createIncident(t, keyFor(t, store.RoleAnalyst), map[string]any{"incident_type": typ, "source": "siem", "severity": "low"})
	want := "playbook:" + name + " (automated)"
	ticket := incidentAction(t, inc["id"].(string), "create_ticket", func(a map[string]any) bool { return a["status"] == "completed" })
	notice := incidentAction(t, inc["id"].(string), "notify_user", func(a map[string]any) bool { return a["status"] != "pending" })
	if ticket["requested_by"] != want || notice["requested_by"] != want {
		t.Fatalf("requested_by %v and %v, want %q", ticket["requested_by"], notice["requested_by"], want)
	}
	if notice["status"] != "rejected" {
		t.Fatalf("policy did not see the automated requester: %v", notice)
	}
}

// TestHandStartedPlaybookWorkflowRunsNothing starts Playbook workflows by
// hand with a forged definition: for an execution id the store does not
// know, for a finished run's id under another workflow id, and under the
// finished run's own workflow id. None of them runs a step.
func TestHandStartedPlaybookWorkflowRunsNothing(t *testing.T) {
	ctx := context.Background()
	key := keyFor(t, store.RoleAnalyst)
	p := createPlaybook(t, fmt.Sprintf("name: one ticket %s\nsteps:\n  - name: t\n    action: create_ticket\n    parameters:\n      title: real\n", randomSuffix()))
	inc := createIncident(t, key, map[string]any{"incident_type": "misc", "source": "siem", "severity": "low"})
	incID := inc["id"].(string)
	run := call(t, http.MethodPost, "/api/playbooks/"+p["id"].(string)+"/run", key, map[string]any{"incident_id": incID})
	expectStatus(t, run, http.StatusCreated)
	done := run.data()["execution_id"].(string)
	actionsBefore := len(call(t, http.MethodGet, "/api/incidents/"+incID+"/actions", key, nil).Body["data"].([]any))

	forged := playbook.Playbook{Name: "forged", Steps: []playbook.Step{
		{Name: "evil", Action: "isolate_host", Parameters: map[string]any{"host_id": "dc-01"}},
		{Name: "noise", Action: "create_ticket", Parameters: map[string]any{"title": "forged"}},
	}}
	cases := []struct{ name, executionID, workflowID string }{
		{"unknown execution", uuid.NewString(), "forged-" + randomSuffix()},
		{"finished execution, other workflow", done, "forged-" + randomSuffix()},
		{"finished execution, its own workflow", done, workflows.PlaybookRunWorkflowID(done)},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			wr, err := env.temporal.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: tc.workflowID, TaskQueue: workflows.TaskQueue},
				workflows.Playbook, workflows.PlaybookInput{ExecutionID: tc.executionID, IncidentID: incID, Definition: forged})
			if err != nil {
				t.Fatal(err)
			}
			wctx, cancel := context.WithTimeout(ctx, 30*time.Second)
			defer cancel()
			var out workflows.PlaybookOutcome
			if err := wr.Get(wctx, &out); err != nil {
				t.Fatal(err)
			}
			if out.Status != "failed" || out.StepsCompleted != 0 {
				t.Fatalf("forged run: %+v", out)
			}
			if n := len(call(t, http.MethodGet, "/api/incidents/"+incID+"/actions", key, nil).Body["data"].([]any)); n != actionsBefore {
				t.Fatalf("forged run requested %d actions", n-actionsBefore)
			}
			e, err := env.store.GetExecution(ctx, done)
			if err != nil || e.Status != store.ExecutionCompleted || e.Error != "" {
				t.Fatalf("the real execution changed: %+v %v", e, err)
			}
		})
	}
}
