package api_test

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/vigil-soc/vigil/store"
)

// timelineOf reads an incident's timeline as a viewer.
func timelineOf(t *testing.T, id string) []map[string]any {
	t.Helper()
	r := call(t, http.MethodGet, "/api/incidents/"+id+"/timeline", keyFor(t, store.RoleViewer), nil)
	expectStatus(t, r, http.StatusOK)
	var out []map[string]any
	for _, e := range r.Body["data"].([]any) {
		out = append(out, e.(map[string]any))
	}
	return out
}

func findEntry(entries []map[string]any, kind, event string) map[string]any {
	for _, e := range entries {
		if e["kind"] == kind && e["event"] == event {
			return e
		}
	}
	return nil
}

func TestIncidentTimelineTellsEverythingOldestFirst(t *testing.T) {
	analyst := keyFor(t, store.RoleAnalyst)
	id := createIncident(t, analyst, map[string]any{"incident_type": "malware", "source": "edr", "severity": "critical",
		"raw_data": map[string]any{"DetectName": "Ransomware.Conti", "host_id": "fin-ws-042"}})["id"].(string)
	expectStatus(t, call(t, http.MethodPost, "/api/incidents/"+id+"/triage", analyst, nil), http.StatusOK)
	req := call(t, http.MethodPost, "/api/incidents/"+id+"/actions", analyst,
		map[string]any{"action": "isolate_host", "parameters": map[string]any{"host_id": "fin-ws-042"}})
	if req.Status != http.StatusCreated && req.Status != http.StatusOK && req.Status != http.StatusAccepted {
		t.Fatalf("request isolate_host: %d %s", req.Status, req.Raw)
	}
	actionID := req.data()["action_id"].(string)
	// A viewer's refused change is part of the story too.
	expectStatus(t, call(t, http.MethodPut, "/api/incidents/"+id, keyFor(t, store.RoleViewer), map[string]any{"status": "resolved"}), http.StatusForbidden)
	upd := call(t, http.MethodPut, "/api/incidents/"+id, analyst, map[string]any{"assignee": "sam", "status": "triaged"})
	expectStatus(t, upd, http.StatusOK)
	if upd.data()["assignee"] != "sam" {
		t.Fatalf("assignee after update: %s", upd.Raw)
	}

	entries := timelineOf(t, id)
	var last time.Time
	for _, e := range entries {
		at, err := time.Parse(time.RFC3339Nano, e["at"].(string))
		if err != nil || at.Before(last) {
			t.Fatalf("entries out of order or bad time at %v: %v", e, err)
		}
		last = at
	}
	if entries[0]["kind"] != "incident" || entries[0]["event"] != "created" {
		t.Fatalf("first entry %v, want the creation", entries[0])
	}
	verdict := findEntry(entries, "triage", "completed")
	if verdict == nil || !strings.Contains(verdict["summary"].(string), "Verdict: malicious") {
		t.Fatalf("no completed triage with its verdict: %v", entries)
	}
	requested := findEntry(entries, "action", "requested")
	if requested == nil || requested["ref"] != actionID || !strings.Contains(requested["summary"].(string), "isolate_host") {
		t.Fatalf("no request of the action: %v", entries)
	}
	denied := findEntry(entries, "audit", "incident.update")
	if denied == nil || denied["outcome"] != "denied" {
		t.Fatalf("the viewer's refused update is missing: %v", entries)
	}
	var changed map[string]any
	for _, e := range entries {
		if e["event"] == "incident.update" && e["outcome"] == "success" {
			changed = e
		}
	}
	if changed == nil || !strings.Contains(changed["summary"].(string), "assignee to sam") {
		t.Fatalf("the assignment is missing: %v", entries)
	}
	// Successes the records already tell are not repeated from the audit trail.
	for _, e := range entries {
		if e["kind"] == "audit" && e["outcome"] == "success" && (e["event"] == "incident.triage" || e["event"] == "action.request") {
			t.Fatalf("audit entry %v repeats a record", e)
		}
	}

	expectStatus(t, call(t, http.MethodGet, "/api/incidents/00000000-0000-0000-0000-000000000000/timeline", analyst, nil), http.StatusNotFound)
}

func TestIncidentUpdateAssigneeValidation(t *testing.T) {
	analyst := keyFor(t, store.RoleAnalyst)
	id := newTestIncident(t, analyst)
	r := call(t, http.MethodPut, "/api/incidents/"+id, analyst, map[string]any{"assignee": strings.Repeat("a", 300)})
	expectStatus(t, r, http.StatusUnprocessableEntity)
	if _, ok := r.errDetails()["assignee"]; !ok {
		t.Fatalf("details do not name assignee: %s", r.Raw)
	}
	expectStatus(t, call(t, http.MethodPut, "/api/incidents/"+id, analyst, map[string]any{"assignee": "bob"}), http.StatusOK)
	cleared := call(t, http.MethodPut, "/api/incidents/"+id, analyst, map[string]any{"assignee": ""})
	expectStatus(t, cleared, http.StatusOK)
	if cleared.data()["assignee"] != "" {
		t.Fatalf("assignee not cleared: %s", cleared.Raw)
	}
}

func TestIncidentExecutionsList(t *testing.T) {
	analyst := keyFor(t, store.RoleAnalyst)
	id := createIncident(t, analyst, map[string]any{"incident_type": "malware", "source": "edr", "severity": "low",
		"raw_data": map[string]any{"host_id": "fin-ws-007"}})["id"].(string)
	empty := call(t, http.MethodGet, "/api/incidents/"+id+"/executions", analyst, nil)
	expectStatus(t, empty, http.StatusOK)
	if n := len(empty.Body["data"].([]any)); n != 0 {
		t.Fatalf("%d runs on a new incident", n)
	}
	manager := keyFor(t, store.RoleManager)
	pb := call(t, http.MethodPost, "/api/playbooks", manager, map[string]any{
		"content": "name: timeline scan " + randomSuffix() + "\nsteps:\n  - name: scan\n    action: scan_host\n    parameters:\n      host_id: fin-ws-007\n"})
	expectStatus(t, pb, http.StatusCreated)
	run := call(t, http.MethodPost, "/api/playbooks/"+pb.data()["id"].(string)+"/run", analyst, map[string]any{"incident_id": id})
	if run.Status != http.StatusCreated && run.Status != http.StatusOK && run.Status != http.StatusAccepted {
		t.Fatalf("run: %d %s", run.Status, run.Raw)
	}
	list := call(t, http.MethodGet, "/api/incidents/"+id+"/executions", keyFor(t, store.RoleViewer), nil)
	expectStatus(t, list, http.StatusOK)
	rows := list.Body["data"].([]any)
	if len(rows) != 1 || rows[0].(map[string]any)["execution_id"] != run.data()["execution_id"] {
		t.Fatalf("runs of the incident: %s", list.Raw)
	}
	if findEntry(timelineOf(t, id), "playbook_run", "started") == nil {
		t.Fatal("the run is not on the timeline")
	}
}

func TestRotateWebhookSecret(t *testing.T) {
	name := "rot-" + randomSuffix()
	old := registerSource(t, name, map[string]any{"auto_triage": true, "playbook": "Malware containment"})
	path := "/api/webhooks/" + name + "/rotate-secret"
	expectStatus(t, call(t, http.MethodPost, path, keyFor(t, store.RoleAnalyst), nil), http.StatusForbidden)
	expectStatus(t, call(t, http.MethodPost, "/api/webhooks/nope-"+randomSuffix()+"/rotate-secret", keyFor(t, store.RoleManager), nil), http.StatusNotFound)
	short := call(t, http.MethodPost, path, keyFor(t, store.RoleManager), map[string]any{"secret": "short"})
	expectStatus(t, short, http.StatusUnprocessableEntity)

	r := call(t, http.MethodPost, path, keyFor(t, store.RoleManager), nil)
	expectStatus(t, r, http.StatusOK)
	secret, _ := r.data()["secret"].(string)
	if len(secret) != 64 || secret == old || r.data()["auto_triage"] != true || r.data()["playbook"] != "Malware containment" {
		t.Fatalf("rotation answer: %s", r.Raw)
	}
	body := `{"event_type":"alert","timestamp":"` + time.Now().UTC().Format(time.RFC3339) + `","source":"x","data":{"alert_id":"` + randomSuffix() + `","severity":"low","details":{}}}`
	expectStatus(t, deliver(t, name, old, body, time.Now()), http.StatusUnauthorized)
	if got := deliver(t, name, secret, body, time.Now()); got.Status >= 300 {
		t.Fatalf("delivery signed with the new secret: %d %s", got.Status, got.Raw)
	}
	if again := call(t, http.MethodGet, "/api/webhooks/"+name, keyFor(t, store.RoleManager), nil); strings.Contains(string(again.Raw), secret) {
		t.Fatal("a read shows the secret")
	}
}
