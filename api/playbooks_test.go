package api_test

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/vigil-soc/vigil/internal/testenv"
	"github.com/vigil-soc/vigil/store"
)

// ticketPlaybook is a small playbook that runs without approvals.
func ticketPlaybook(name, incidentType string, autoRun bool) string {
	return fmt.Sprintf(`name: %s
description: open a ticket and say what the analyzer thinks
triggers:
  incident_type: %s
  auto_run: %t
variables:
  priority: high
steps:
  - name: assess
    ai_analysis:
      question: Is this incident malicious?
    output: assessment
  - name: gate
    condition: 'outputs.assessment.classification != "benign"'
    then: record
    else: stop
  - name: record
    parallel:
      - - name: ticket
          action: create_ticket
          parameters:
            title: "{{ incident.number }}: {{ outputs.assessment.classification }}"
            priority: "{{ variables.priority }}"
          output: ticket
      - - name: tell
          action: notify_user
          parameters:
            user: soc-lead@corp.example
            message: "Playbook {{ playbook.name }} ran on {{ incident.number }}"
          continue_on_error: true
`, name, incidentType, autoRun)
}

func createPlaybook(t *testing.T, content string) map[string]any {
	t.Helper()
	r := call(t, http.MethodPost, "/api/playbooks", keyFor(t, store.RoleManager), map[string]any{"content": content})
	expectStatus(t, r, http.StatusCreated)
	id := r.data()["id"].(string)
	t.Cleanup(func() { call(t, http.MethodDelete, "/api/playbooks/"+id, env.adminKey, nil) })
	return r.data()
}

func TestPlaybookValidateEndpoint(t *testing.T) {
	key := keyFor(t, store.RoleViewer)
	good := call(t, http.MethodPost, "/api/playbooks/validate", key, map[string]any{"content": ticketPlaybook("v-"+randomSuffix(), "x", false)})
	expectStatus(t, good, http.StatusOK)
	if good.data()["valid"] != true {
		t.Fatalf("valid playbook: %s", good.Raw)
	}
	bad := "name: broken\nsteps:\n  - name: one\n    action: launch_missiles\n"
	r := call(t, http.MethodPost, "/api/playbooks/validate", key, map[string]any{"content": bad})
	expectStatus(t, r, http.StatusOK)
	errs, _ := r.data()["errors"].([]any)
	if r.data()["valid"] != false || len(errs) == 0 || errs[0].(map[string]any)["line"] != 4.0 {
		t.Fatalf("unknown action should be reported at line 4: %s", r.Raw)
	}
	create := call(t, http.MethodPost, "/api/playbooks", keyFor(t, store.RoleManager), map[string]any{"content": bad})
	expectStatus(t, create, http.StatusUnprocessableEntity)
	if !strings.Contains(string(create.Raw), `"line":4`) {
		t.Fatalf("create with a bad playbook: %s", create.Raw)
	}
}

func TestPlaybookVersionsExportAndBuiltins(t *testing.T) {
	name := "versions-" + randomSuffix()
	content := ticketPlaybook(name, "x", false)
	p := createPlaybook(t, content)
	id := p["id"].(string)
	if p["version"] != "1.0" {
		t.Fatalf("new playbook version %v", p["version"])
	}
	mgr := keyFor(t, store.RoleManager)
	up := call(t, http.MethodPut, "/api/playbooks/"+id, mgr, map[string]any{"description": "changed", "enabled": false})
	expectStatus(t, up, http.StatusOK)
	if up.data()["version"] != "1.1" || up.data()["enabled"] != false || up.data()["description"] != "changed" {
		t.Fatalf("update: %s", up.Raw)
	}
	vs := call(t, http.MethodGet, "/api/playbooks/"+id+"/versions", mgr, nil)
	if n := len(vs.Body["data"].([]any)); n != 2 {
		t.Fatalf("%d versions, want 2", n)
	}
	old := call(t, http.MethodGet, "/api/playbooks/"+id+"/versions/1.0", mgr, nil)
	if old.data()["content"] != content {
		t.Fatal("version 1.0 lost its content")
	}
	restored := call(t, http.MethodPost, "/api/playbooks/"+id+"/versions/1.0/restore", mgr, nil)
	expectStatus(t, restored, http.StatusOK)
	if restored.data()["version"] != "1.2" || restored.data()["description"] == "changed" {
		t.Fatalf("restore: %s", restored.Raw)
	}

	export := call(t, http.MethodGet, "/api/playbooks/"+id+"/export", mgr, nil)
	expectStatus(t, export, http.StatusOK)
	if !strings.HasPrefix(export.Header.Get("Content-Type"), "application/yaml") {
		t.Fatalf("export content type %q", export.Header.Get("Content-Type"))
	}
	before := call(t, http.MethodGet, "/api/playbooks/"+id, mgr, nil).data()
	expectStatus(t, call(t, http.MethodDelete, "/api/playbooks/"+id, mgr, nil), http.StatusNoContent)
	again := call(t, http.MethodPost, "/api/playbooks", mgr, map[string]any{"content": string(export.Raw)})
	expectStatus(t, again, http.StatusCreated)
	after := call(t, http.MethodGet, "/api/playbooks/"+again.data()["id"].(string), mgr, nil).data()
	t.Cleanup(func() { call(t, http.MethodDelete, "/api/playbooks/"+again.data()["id"].(string), env.adminKey, nil) })
	for _, f := range []string{"name", "description", "triggers", "variables", "steps"} {
		if string(mustJSON(before[f])) != string(mustJSON(after[f])) {
			t.Errorf("re-imported %s differs:\n%s\n%s", f, mustJSON(before[f]), mustJSON(after[f]))
		}
	}

	list := call(t, http.MethodGet, "/api/playbooks", mgr, nil).Body["data"].([]any)
	builtins := 0
	for _, v := range list {
		m := v.(map[string]any)
		if m["builtin"] == true {
			builtins++
			r := call(t, http.MethodDelete, "/api/playbooks/"+m["id"].(string), env.adminKey, nil)
			expectStatus(t, r, http.StatusConflict)
			if r.errCode() != "builtin_playbook" {
				t.Fatalf("deleting a built-in: %s", r.Raw)
			}
		}
	}
	if builtins < 3 {
		t.Fatalf("%d built-in playbooks, want 3", builtins)
	}
}

func TestPlaybookRunCompletesAndRecordsSteps(t *testing.T) {
	p := createPlaybook(t, ticketPlaybook("run-"+randomSuffix(), "x", false))
	key := keyFor(t, store.RoleAnalyst)
	inc := createIncident(t, key, map[string]any{"incident_type": "phishing", "source": "mail", "severity": "high", "raw_data": phishingPayload})
	r := call(t, http.MethodPost, "/api/playbooks/"+p["id"].(string)+"/run", key, map[string]any{"incident_id": inc["id"]})
	if r.Status != http.StatusCreated && r.Status != http.StatusAccepted {
		t.Fatalf("run: %s", r.Raw)
	}
	execID := r.data()["execution_id"].(string)
	var d map[string]any
	testenv.Eventually(t, 30*time.Second, func() bool {
		d = call(t, http.MethodGet, "/api/playbooks/"+p["id"].(string)+"/executions/"+execID, key, nil).data()
		return d["status"] == "completed"
	}, "playbook run did not complete: %v", d)
	if d["steps_total"] != 5.0 || d["steps_completed"] != 5.0 || d["playbook_id"] != p["id"] || d["incident_id"] != inc["id"] {
		t.Fatalf("execution: %v", d)
	}
	steps := d["steps"].([]any)
	names := []string{}
	for _, s := range steps {
		names = append(names, s.(map[string]any)["name"].(string))
	}
	if len(steps) != 5 || !strings.Contains(strings.Join(names, ","), "ticket") {
		t.Fatalf("recorded steps %v", names)
	}
	actions := call(t, http.MethodGet, "/api/incidents/"+inc["id"].(string)+"/actions", key, nil).Body["data"].([]any)
	if len(actions) != 2 {
		t.Fatalf("%d actions from the playbook, want 2", len(actions))
	}
	list := call(t, http.MethodGet, "/api/playbooks/"+p["id"].(string)+"/executions", key, nil).Body["data"].([]any)
	if len(list) != 1 || list[0].(map[string]any)["execution_id"] != execID {
		t.Fatalf("executions list: %v", list)
	}
}

// TestPlaybookWaitsForApprovalAcrossWorkerRestartAndEdits: a run waits on
// an isolation that needs a senior; the worker restarts and the playbook is
// edited meanwhile; after approval the run finishes the version it began.
func TestPlaybookWaitsForApprovalAcrossWorkerRestartAndEdits(t *testing.T) {
	name := "gated-" + randomSuffix()
	content := fmt.Sprintf(`name: %s
steps:
  - name: isolate
    action: isolate_host
    parameters:
      host_id: "{{ incident.raw_data.HostnameField }}"
    output: isolation
  - name: ticket
    action: create_ticket
    parameters:
      title: "Isolated {{ outputs.isolation.hostname }}"
`, name)
	p := createPlaybook(t, content)
	pid := p["id"].(string)
	key := keyFor(t, store.RoleAnalyst)
	inc := createIncident(t, key, map[string]any{"incident_type": "malware", "source": "edr", "severity": "critical",
		"raw_data": map[string]any{"HostnameField": "ws-" + randomSuffix()}})
	r := call(t, http.MethodPost, "/api/playbooks/"+pid+"/run", key, map[string]any{"incident_id": inc["id"]})
	expectStatus(t, r, http.StatusAccepted)
	execID := r.data()["execution_id"].(string)
	var actionID string
	testenv.Eventually(t, 20*time.Second, func() bool {
		acts := call(t, http.MethodGet, "/api/actions?status=pending_approval&incident_id="+inc["id"].(string), key, nil).Body["data"].([]any)
		if len(acts) == 1 {
			actionID = acts[0].(map[string]any)["id"].(string)
		}
		return actionID != ""
	}, "the isolation step never asked for approval")

	env.worker.Stop()
	env.worker = newTestWorker(t)
	up := call(t, http.MethodPut, "/api/playbooks/"+pid, keyFor(t, store.RoleManager), map[string]any{
		"content": fmt.Sprintf("name: %s\nsteps:\n  - name: only\n    action: create_ticket\n    parameters:\n      title: edited\n", name)})
	expectStatus(t, up, http.StatusOK)

	call(t, http.MethodPost, "/api/actions/"+actionID+"/approve", keyFor(t, store.RoleSenior), nil)
	var d map[string]any
	testenv.Eventually(t, 60*time.Second, func() bool {
		d = call(t, http.MethodGet, "/api/playbooks/"+pid+"/executions/"+execID, key, nil).data()
		return d["status"] == "completed"
	}, "run did not finish after approval: %v", d)
	if d["version"] != "1.0" || d["steps_completed"] != 2.0 {
		t.Fatalf("run after an edit: %v", d)
	}
	acts := call(t, http.MethodGet, "/api/incidents/"+inc["id"].(string)+"/actions", key, nil).Body["data"].([]any)
	titles := ""
	for _, a := range acts {
		titles += fmt.Sprint(a.(map[string]any)["parameters"])
	}
	if !strings.Contains(titles, "Isolated") || strings.Contains(titles, "edited") {
		t.Fatalf("the run did not keep the version it started with: %s", titles)
	}
}

func TestPlaybookAutoRunsOncePerIncident(t *testing.T) {
	typ := "auto-" + randomSuffix()
	p := createPlaybook(t, ticketPlaybook("auto-"+randomSuffix(), typ, true))
	key := keyFor(t, store.RoleAnalyst)
	inc := createIncident(t, key, map[string]any{"incident_type": typ, "source": "siem", "severity": "medium"})
	var execs []any
	testenv.Eventually(t, 30*time.Second, func() bool {
		execs = call(t, http.MethodGet, "/api/playbooks/"+p["id"].(string)+"/executions", key, nil).Body["data"].([]any)
		return len(execs) == 1 && execs[0].(map[string]any)["status"] == "completed"
	}, "auto-run playbook did not run: %v", execs)
	if execs[0].(map[string]any)["incident_id"] != inc["id"] {
		t.Fatalf("auto run on the wrong incident: %v", execs[0])
	}
	// Other types do not trigger it; the same incident is never run twice.
	createIncident(t, key, map[string]any{"incident_type": "other-" + typ, "source": "siem", "severity": "medium"})
	n, _ := env.store.IntakeBacklog(context.Background(), store.IntakeAutoRun)
	testenv.Eventually(t, 10*time.Second, func() bool {
		n, _ = env.store.IntakeBacklog(context.Background(), store.IntakeAutoRun)
		return n == 0
	}, "auto-run queue not drained")
	execs = call(t, http.MethodGet, "/api/playbooks/"+p["id"].(string)+"/executions", key, nil).Body["data"].([]any)
	if len(execs) != 1 {
		t.Fatalf("%d runs, want 1", len(execs))
	}
}

func TestKillSwitchPausesPlaybookRuns(t *testing.T) {
	p := createPlaybook(t, ticketPlaybook("halt-"+randomSuffix(), "x", false))
	manager := keyFor(t, store.RoleManager)
	key := keyFor(t, store.RoleAnalyst)
	inc := createIncident(t, key, map[string]any{"incident_type": "phishing", "source": "mail", "severity": "high", "raw_data": phishingPayload})
	setKillSwitch(t, manager, true)
	t.Cleanup(func() { setKillSwitch(t, manager, false) })
	r := call(t, http.MethodPost, "/api/playbooks/"+p["id"].(string)+"/run", key, map[string]any{"incident_id": inc["id"]})
	expectStatus(t, r, http.StatusAccepted)
	execID := r.data()["execution_id"].(string)
	path := "/api/playbooks/" + p["id"].(string) + "/executions/" + execID
	testenv.Eventually(t, 10*time.Second, func() bool {
		return call(t, http.MethodGet, path, key, nil).data()["status"] == "paused_by_kill_switch"
	}, "run did not pause under the kill switch")
	if d := call(t, http.MethodGet, path, key, nil).data(); d["steps_completed"] != 0.0 {
		t.Fatalf("steps ran under the kill switch: %v", d)
	}
	setKillSwitch(t, manager, false)
	testenv.Eventually(t, 20*time.Second, func() bool {
		return call(t, http.MethodGet, path, key, nil).data()["status"] == "completed"
	}, "run did not resume after the kill switch")
}

func TestPlaybookSchemaIsServed(t *testing.T) {
	r := call(t, http.MethodGet, "/api/playbooks/schema", keyFor(t, store.RoleViewer), nil)
	expectStatus(t, r, http.StatusOK)
	if !strings.HasPrefix(r.Header.Get("Content-Type"), "application/schema+json") || r.Body["$schema"] == nil {
		t.Fatalf("schema: %s %.200s", r.Header.Get("Content-Type"), r.Raw)
	}
	if !strings.Contains(string(r.Raw), "quarantine_email") {
		t.Fatal("schema does not list the action types")
	}
}
