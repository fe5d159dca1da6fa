package api_test

import (
	"context"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"go.temporal.io/api/enums/v1"
	"google.golang.org/protobuf/encoding/protojson"

	"github.com/google/uuid"
	"go.temporal.io/sdk/client"

	"github.com/vigil-soc/vigil/internal/testenv"
	"github.com/vigil-soc/vigil/playbook"
	"github.com/vigil-soc/vigil/store"
	"github.com/vigil-soc/vigil/workflows"
)

// TestRecordBuiltinPlaybookHistories runs every built-in playbook (and so
// the triage and action workflows) on a matching incident and writes each
// run's history to VIGIL_RECORD_HISTORIES, for the replay test in
// workflows/. It is skipped unless that variable names a directory.
func TestRecordBuiltinPlaybookHistories(t *testing.T) {
	dir := os.Getenv("VIGIL_RECORD_HISTORIES")
	if dir == "" {
		t.Skip("set VIGIL_RECORD_HISTORIES to a directory to record workflow histories")
	}
	key := keyFor(t, store.RoleAnalyst)
	incidents := map[string]map[string]any{
		"phishing":         {"incident_type": "phishing", "source": "mail", "severity": "high", "raw_data": map[string]any{"message_id": "<m1@corp>", "sender": "security@micros0ft-support.com", "recipients": []any{"jane@corp.example"}, "subject": "Verify your account", "urls": []any{"https://micros0ft-support.com/login"}}},
		"malware":          {"incident_type": "malware", "source": "edr", "severity": "critical", "raw_data": map[string]any{"HostnameField": "fin-ws-042", "DetectName": "Ransomware.Conti", "CommandLine": "vssadmin delete shadows /all /quiet"}},
		"suspicious login": {"incident_type": "suspicious login", "source": "idp", "severity": "high", "raw_data": map[string]any{"user": "jane@corp.example", "impossible_travel": true, "is_tor": true}},
	}
	list := call(t, http.MethodGet, "/api/playbooks", key, nil).Body["data"].([]any)
	for _, v := range list {
		p := v.(map[string]any)
		if p["builtin"] != true {
			continue
		}
		typ := p["triggers"].(map[string]any)["incident_type"].(string)
		inc := createIncident(t, key, incidents[typ])
		r := call(t, http.MethodPost, "/api/playbooks/"+p["id"].(string)+"/run", key, map[string]any{"incident_id": inc["id"]})
		wf := r.data()["workflow_id"].(string)
		testenv.Eventually(t, 60*time.Second, func() bool {
			pending := call(t, http.MethodGet, "/api/actions?status=pending_approval&incident_id="+inc["id"].(string), key, nil).Body["data"].([]any)
			for _, a := range pending {
				call(t, http.MethodPost, "/api/actions/"+a.(map[string]any)["id"].(string)+"/approve", env.adminKey, nil)
			}
			d, err := env.temporal.DescribeWorkflowExecution(context.Background(), wf, "")
			return err == nil && d.WorkflowExecutionInfo.Status != enums.WORKFLOW_EXECUTION_STATUS_RUNNING
		}, "built-in playbook %v did not finish", p["name"])
		slug := strings.ReplaceAll(strings.ToLower(p["name"].(string)), " ", "-")
		writeHistory(t, wf, filepath.Join(dir, "playbook-"+slug+".json"))
		acts := call(t, http.MethodGet, "/api/incidents/"+inc["id"].(string)+"/actions", key, nil).Body["data"].([]any)
		for _, a := range acts {
			m := a.(map[string]any)
			writeHistory(t, m["workflow_id"].(string), filepath.Join(dir, "action-"+slug+"-"+m["action_type"].(string)+".json"))
		}
		tr := call(t, http.MethodPost, "/api/incidents/"+inc["id"].(string)+"/triage", key, map[string]any{"force": true})
		writeHistory(t, tr.data()["workflow_id"].(string), filepath.Join(dir, "triage-"+slug+".json"))
	}
	recordForgedSignalHistories(t, dir)
	recordAutomatedTriageHistory(t, dir)
}

// recordAutomatedTriageHistory records an automated triage of a signed
// ransomware alert: the verdict, then the recommended actions started as
// child runs.
func recordAutomatedTriageHistory(t *testing.T, dir string) {
	name := "record-" + randomSuffix()
	secret := registerSource(t, name, map[string]any{"auto_triage": true})
	r := deliver(t, name, secret, strings.Replace(edrAlert, "%s", randomSuffix(), 1), time.Now())
	expectStatus(t, r, http.StatusCreated)
	id := r.Body["incident_id"].(string)
	var wf string
	testenv.Eventually(t, 30*time.Second, func() bool {
		trs, err := env.store.ListTriages(context.Background(), id, 1)
		if err != nil || len(trs) == 0 {
			return false
		}
		wf = trs[0].WorkflowID
		d, err := env.temporal.DescribeWorkflowExecution(context.Background(), wf, "")
		return err == nil && d.WorkflowExecutionInfo.Status != enums.WORKFLOW_EXECUTION_STATUS_RUNNING
	}, "automated triage of %s did not finish", id)
	writeHistory(t, wf, filepath.Join(dir, "triage-automated-ransomware.json"))
	// Its recommended actions' runs that policy lets run at once: they
	// decide, execute and record in one workflow task.
	acts, err := env.store.ListActions(context.Background(), store.ActionFilter{IncidentID: id})
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range acts {
		waiting := false
		testenv.Eventually(t, 30*time.Second, func() bool {
			cur, err := env.store.GetAction(context.Background(), a.ID)
			if waiting = err == nil && cur.Status == store.ActionPendingApproval; waiting {
				return true
			}
			d, err := env.temporal.DescribeWorkflowExecution(context.Background(), a.WorkflowID, "")
			return err == nil && d.WorkflowExecutionInfo.Status != enums.WORKFLOW_EXECUTION_STATUS_RUNNING
		}, "action %s of the automated triage did not finish", a.ID)
		if !waiting {
			writeHistory(t, a.WorkflowID, filepath.Join(dir, "action-automated-ransomware-"+a.ActionType+".json"))
		}
	}
}

// recordForgedSignalHistories records the paths that raw signals, raw
// updates and hand-started workflows take: an action woken by an approve
// signal or a decide update with no decision behind it (then really
// approved), the kill switch woken by
// a deactivation signal the store contradicts, and a playbook run the
// store does not know.
func recordForgedSignalHistories(t *testing.T, dir string) {
	ctx := context.Background()
	id := pendingIsolation(t)
	wf := workflows.ActionWorkflowID(id)
	if err := env.temporal.SignalWorkflow(ctx, wf, "", workflows.SignalApprove, map[string]any{}); err != nil {
		t.Fatal(err)
	}
	waitSignalHandled(t, wf)
	expectStatus(t, call(t, http.MethodPost, "/api/actions/"+id+"/approve", keyFor(t, store.RoleSenior), nil), http.StatusOK)
	writeHistory(t, wf, filepath.Join(dir, "action-forged-approve-then-approved.json"))

	id = pendingIsolation(t)
	rawDecide(t, id, map[string]any{"By": "admin"})
	expectStatus(t, call(t, http.MethodPost, "/api/actions/"+id+"/approve", keyFor(t, store.RoleSenior), nil), http.StatusOK)
	writeHistory(t, workflows.ActionWorkflowID(id), filepath.Join(dir, "action-forged-decide-then-approved.json"))

	manager := keyFor(t, store.RoleManager)
	setKillSwitch(t, manager, true)
	if err := env.temporal.SignalWorkflow(ctx, workflows.KillSwitchWorkflowID, "", workflows.SignalKillSwitchSet, map[string]any{"Active": false}); err != nil {
		t.Fatal(err)
	}
	waitSignalHandled(t, workflows.KillSwitchWorkflowID)
	setKillSwitch(t, manager, false)
	waitSignalHandled(t, workflows.KillSwitchWorkflowID)
	writeHistory(t, workflows.KillSwitchWorkflowID, filepath.Join(dir, "kill-switch-forged-deactivation.json"))

	forged := "forged-" + randomSuffix()
	wr, err := env.temporal.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: forged, TaskQueue: workflows.TaskQueue},
		workflows.Playbook, workflows.PlaybookInput{ExecutionID: uuid.NewString(),
			Definition: playbook.Playbook{Name: "forged", Steps: []playbook.Step{{Name: "t", Action: "create_ticket"}}}})
	if err != nil {
		t.Fatal(err)
	}
	if err := wr.Get(ctx, nil); err != nil {
		t.Fatal(err)
	}
	writeHistory(t, forged, filepath.Join(dir, "playbook-forged-unknown-execution.json"))
}

func writeHistory(t *testing.T, workflowID, path string) {
	t.Helper()
	b, err := protojson.MarshalOptions{Indent: "  "}.Marshal(historyOf(t, workflowID, ""))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
}
