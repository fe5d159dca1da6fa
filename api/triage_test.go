package api_test

import (
	"context"
	"net/http"
	"testing"
	"time"

	"go.temporal.io/api/enums/v1"

	"github.com/vigil-soc/vigil/internal/testenv"
	"github.com/vigil-soc/vigil/store"
)

// phishingPayload is a lookalike sender with a credential-harvesting link.
var phishingPayload = map[string]any{
	"sender":     "security@micros0ft-support.com",
	"subject":    "Urgent: verify your account or it will be suspended",
	"recipients": []any{"jane@corp.example"},
	"urls":       []any{"https://micros0ft-support.com/login/verify?user=jane"},
}

func TestTriageProducesVerdictThroughWorkflow(t *testing.T) {
	key := keyFor(t, "analyst")
	inc := createIncident(t, key, map[string]any{
		"incident_type": "phishing", "source": "email-gateway", "severity": "high", "raw_data": phishingPayload,
	})
	id := inc["id"].(string)
	r := call(t, http.MethodPost, "/api/incidents/"+id+"/triage", key, nil)
	expectStatus(t, r, http.StatusOK)
	d := r.data()
	if d["status"] != "completed" || d["triage_id"] == "" || d["duration_ms"] == nil {
		t.Fatalf("triage response: %v", d)
	}
	v := d["verdict"].(map[string]any)
	if v["classification"] != "malicious" || v["confidence"].(float64) < 0.85 {
		t.Fatalf("verdict for a lookalike credential phish: %v", v)
	}

	// The workflow ran on Temporal under the documented ID and is findable
	// by the incident number.
	wfID := "triage/" + id + "/" + d["triage_id"].(string)
	desc, err := env.temporal.DescribeWorkflowExecution(context.Background(), wfID, "")
	if err != nil {
		t.Fatalf("describe %s: %v", wfID, err)
	}
	if desc.WorkflowExecutionInfo.Status != enums.WORKFLOW_EXECUTION_STATUS_COMPLETED {
		t.Fatalf("workflow status %v", desc.WorkflowExecutionInfo.Status)
	}
	sa := desc.WorkflowExecutionInfo.SearchAttributes.GetIndexedFields()
	if _, ok := sa["IncidentNumber"]; !ok {
		t.Fatalf("IncidentNumber search attribute not set: %v", sa)
	}

	got := call(t, http.MethodGet, "/api/incidents/"+id, key, nil).data()
	if got["status"] != "triaged" || got["triaged_at"] == nil {
		t.Fatalf("incident after triage: status %v triaged_at %v", got["status"], got["triaged_at"])
	}
	if got["verdict"].(map[string]any)["classification"] != "malicious" {
		t.Fatalf("stored verdict: %v", got["verdict"])
	}
	acts := got["recommended_actions"].([]any)
	if !containsAny(acts, "quarantine_email") || !containsAny(acts, "block_sender") {
		t.Fatalf("recommended actions %v lack quarantine_email and block_sender", acts)
	}

	// Without force the existing verdict comes back; with force it runs again.
	again := call(t, http.MethodPost, "/api/incidents/"+id+"/triage", key, map[string]any{})
	expectStatus(t, again, http.StatusOK)
	if again.data()["triage_id"] != d["triage_id"] || again.data()["reused"] != true {
		t.Fatalf("repeat without force started a new triage: %v", again.data())
	}
	forced := call(t, http.MethodPost, "/api/incidents/"+id+"/triage", key, map[string]any{"force": true})
	expectStatus(t, forced, http.StatusOK)
	if forced.data()["triage_id"] == d["triage_id"] || forced.data()["reused"] != false {
		t.Fatalf("force did not run triage again: %v", forced.data())
	}
}

func containsAny(list []any, want string) bool {
	for _, v := range list {
		if v == want {
			return true
		}
	}
	return false
}

func TestTriageAnswers202WhenVerdictIsSlow(t *testing.T) {
	key := keyFor(t, "analyst")
	// A router that waits not at all answers while the workflow still runs.
	impatient := testServer(t, newRouter(env.temporal, time.Nanosecond))
	inc := createIncident(t, key, map[string]any{"incident_type": "malware", "source": "edr", "severity": "high"})
	id := inc["id"].(string)
	r := callURL(t, impatient, http.MethodPost, "/api/incidents/"+id+"/triage", key, nil)
	expectStatus(t, r, http.StatusAccepted)
	if r.data()["status"] != "running" || r.data()["triage_id"] == "" {
		t.Fatalf("202 body: %v", r.data())
	}
	testenv.Eventually(t, 30*time.Second, func() bool {
		got := call(t, http.MethodGet, "/api/incidents/"+id, key, nil).data()
		return got["status"] == "triaged"
	}, "incident %s never triaged", id)
}

func TestConcurrentTriageRequestsShareOneRun(t *testing.T) {
	key := keyFor(t, "analyst")
	inc := createIncident(t, key, map[string]any{"incident_type": "phishing", "source": "mail", "severity": "low", "raw_data": phishingPayload})
	id := inc["id"].(string)
	ids := make(chan any, 4)
	for range 4 {
		go func() {
			r := call(t, http.MethodPost, "/api/incidents/"+id+"/triage", key, nil)
			ids <- r.data()["triage_id"]
		}()
	}
	seen := map[any]bool{}
	for range 4 {
		seen[<-ids] = true
	}
	if len(seen) != 1 {
		t.Fatalf("4 concurrent triage requests ran %d triages: %v", len(seen), seen)
	}
}

func TestTriageErrors(t *testing.T) {
	key := keyFor(t, "analyst")
	r := call(t, http.MethodPost, "/api/incidents/00000000-0000-4000-8000-000000000000/triage", key, nil)
	expectStatus(t, r, http.StatusNotFound)
	inc := createIncident(t, key, map[string]any{"incident_type": "malware", "source": "edr", "severity": "low"})
	r = call(t, http.MethodPost, "/api/incidents/"+inc["id"].(string)+"/triage", key, map[string]any{"force": "yes"})
	expectStatus(t, r, http.StatusUnprocessableEntity)
	if _, ok := r.errDetails()["force"]; !ok {
		t.Fatalf("details do not name force: %s", r.Raw)
	}
	r = call(t, http.MethodPost, "/api/incidents/"+inc["id"].(string)+"/triage", key, map[string]any{"playbook": "nope"})
	expectStatus(t, r, http.StatusUnprocessableEntity)
	if _, ok := r.errDetails()["playbook"]; !ok {
		t.Fatalf("details do not name playbook: %s", r.Raw)
	}
	r = call(t, http.MethodPost, "/api/incidents/"+inc["id"].(string)+"/triage", keyFor(t, "viewer"), nil)
	expectStatus(t, r, http.StatusForbidden)
}

func TestOrphanedRunningTriageIsReplaced(t *testing.T) {
	ctx := context.Background()
	key := keyFor(t, "analyst")
	inc := createIncident(t, key, map[string]any{"incident_type": "malware", "source": "edr", "severity": "high"})
	id := inc["id"].(string)
	orphan, started, err := env.store.BeginTriage(ctx, id, false, &store.Triage{
		ID: "0e0e0e0e-0000-4000-8000-000000000001", WorkflowID: "triage/" + id + "/never-started",
	})
	if err != nil || !started {
		t.Fatalf("seed orphan: %v", err)
	}
	// A young record is trusted: its workflow may be starting right now.
	r := call(t, http.MethodPost, "/api/incidents/"+id+"/triage", key, nil)
	expectStatus(t, r, http.StatusAccepted)
	if r.data()["triage_id"] != orphan.ID {
		t.Fatalf("a fresh running triage was not joined: %s", r.Raw)
	}
	env.store.DB().Model(&store.Triage{}).Where("id = ?", orphan.ID).Update("started_at", time.Now().Add(-2*time.Hour))
	r = call(t, http.MethodPost, "/api/incidents/"+id+"/triage", key, nil)
	expectStatus(t, r, http.StatusOK)
	if r.data()["triage_id"] == orphan.ID || r.data()["status"] != "completed" {
		t.Fatalf("orphaned triage was not replaced: %s", r.Raw)
	}
	old, err := env.store.GetTriage(ctx, orphan.ID)
	if err != nil || old.Status != store.TriageFailed {
		t.Fatalf("orphan record left %v (%v)", old.Status, err)
	}
}

// TestTriageThroughAPlaybook: the body's playbook runs triage through that
// playbook, named or by id; a key that may not execute actions is refused.
func TestTriageThroughAPlaybook(t *testing.T) {
	key := keyFor(t, "analyst")
	inc := createIncident(t, key, map[string]any{"incident_type": "phishing", "source": "mail-gateway", "severity": "medium",
		"raw_data": map[string]any{"sender": "billing@paypa1-secure.example", "subject": "Your account is locked"}})
	id := inc["id"].(string)

	narrow := scopedKey(t, "analyst", []string{"read", "write"})
	r := call(t, http.MethodPost, "/api/incidents/"+id+"/triage", narrow, map[string]any{"playbook": "Phishing triage"})
	if r.Status != http.StatusForbidden || r.errCode() != "insufficient_scope" {
		t.Fatalf("key without actions:execute: %d %s", r.Status, r.Raw)
	}

	r = call(t, http.MethodPost, "/api/incidents/"+id+"/triage", key, map[string]any{"playbook": "phishing TRIAGE"})
	if r.Status != http.StatusOK && r.Status != http.StatusAccepted {
		t.Fatalf("triage through a playbook: %d %s", r.Status, r.Raw)
	}
	d := r.data()
	if d["playbook"] != "Phishing triage" || d["execution_id"] == "" || d["triage_id"] != d["execution_id"] || d["incident_id"] != id {
		t.Fatalf("answer: %s", r.Raw)
	}
	runs := call(t, http.MethodGet, "/api/playbooks/"+d["playbook_id"].(string)+"/executions", key, nil)
	expectStatus(t, runs, http.StatusOK)
	if !containsExecution(runs.Body["data"].([]any), d["execution_id"].(string)) {
		t.Fatalf("the run is not among the playbook's executions: %s", runs.Raw)
	}
	// By id as well.
	r = call(t, http.MethodPost, "/api/incidents/"+id+"/triage", key, map[string]any{"playbook": d["playbook_id"]})
	if r.Status != http.StatusOK && r.Status != http.StatusAccepted || r.data()["playbook"] != "Phishing triage" {
		t.Fatalf("triage through a playbook by id: %d %s", r.Status, r.Raw)
	}
}

func containsExecution(list []any, id string) bool {
	for _, e := range list {
		if m, ok := e.(map[string]any); ok && m["execution_id"] == id {
			return true
		}
	}
	return false
}
