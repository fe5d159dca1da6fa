package api_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	sdkpb "go.temporal.io/api/sdk/v1"
	"go.temporal.io/api/workflowservice/v1"
	"go.temporal.io/sdk/converter"

	"github.com/vigil-soc/vigil/api"
	"github.com/vigil-soc/vigil/app"
	"github.com/vigil-soc/vigil/internal/testenv"
	"github.com/vigil-soc/vigil/store"
	"github.com/vigil-soc/vigil/workflows"
)

// runView is what the Temporal UI and CLI show about one run.
type runView struct {
	Summary, Details, Current string
}

func (v runView) String() string { return v.Summary + "\n" + v.Details + "\n" + v.Current }

// describeRun reads a run's static summary and details from
// DescribeWorkflowExecution (execution_config.user_metadata) and its
// current details from the built-in __temporal_workflow_metadata query,
// the two places the UI's workflow page and `temporal workflow describe`
// read them from.
func describeRun(t *testing.T, workflowID string) runView {
	t.Helper()
	ctx := context.Background()
	d, err := env.temporal.DescribeWorkflowExecution(ctx, workflowID, "")
	if err != nil {
		t.Fatalf("describe %s: %v", workflowID, err)
	}
	var v runView
	dc := converter.GetDefaultDataConverter()
	if md := d.GetExecutionConfig().GetUserMetadata(); md != nil {
		if md.Summary != nil {
			if err := dc.FromPayload(md.Summary, &v.Summary); err != nil {
				t.Fatal(err)
			}
		}
		if md.Details != nil {
			if err := dc.FromPayload(md.Details, &v.Details); err != nil {
				t.Fatal(err)
			}
		}
	}
	q, err := env.temporal.QueryWorkflow(ctx, workflowID, "", "__temporal_workflow_metadata")
	if err != nil {
		t.Fatalf("metadata query %s: %v", workflowID, err)
	}
	var meta sdkpb.WorkflowMetadata
	if err := q.Get(&meta); err != nil {
		t.Fatal(err)
	}
	v.Current = meta.GetCurrentDetails()
	return v
}

// eventuallyView polls a run's view until ok accepts it.
func eventuallyView(t *testing.T, workflowID string, ok func(runView) bool) runView {
	t.Helper()
	var v runView
	testenv.Eventually(t, 30*time.Second, func() bool { v = describeRun(t, workflowID); return ok(v) },
		"run %s never showed the expected view; last:\n%s", workflowID, &v)
	return v
}

// listRuns answers a visibility query with the workflow IDs it finds.
func listRuns(t *testing.T, query string) []string {
	t.Helper()
	var ids []string
	var token []byte
	for {
		r, err := env.temporal.ListWorkflow(context.Background(), &workflowservice.ListWorkflowExecutionsRequest{Query: query, NextPageToken: token})
		if err != nil {
			t.Fatalf("list %q: %v", query, err)
		}
		for _, e := range r.Executions {
			ids = append(ids, e.Execution.WorkflowId)
		}
		if token = r.NextPageToken; len(token) == 0 {
			return ids
		}
	}
}

// eventuallyListed polls a query (visibility is eventually consistent)
// until it lists every ID in want and none in unwanted.
func eventuallyListed(t *testing.T, query string, want, unwanted []string) {
	t.Helper()
	var got []string
	testenv.Eventually(t, 30*time.Second, func() bool {
		got = listRuns(t, query)
		for _, id := range want {
			if !slices.Contains(got, id) {
				return false
			}
		}
		for _, id := range unwanted {
			if slices.Contains(got, id) {
				return false
			}
		}
		return true
	}, "query %q listed %v; want all of %v and none of %v", query, got, want, unwanted)
}

// linkingServer serves the API with VIGIL_PUBLIC_URL set.
func linkingServer(t *testing.T, publicURL string) string {
	t.Helper()
	r := api.NewRouter(api.Options{
		Store: env.store, Temporal: env.temporal, Settings: env.settings, Log: testenv.Logger(), Version: "test",
		TriageWait: 20 * time.Second, Connectors: app.NewConnectors(env.store), Secrets: env.box,
		Dispatcher: env.dispatcher, PublicURL: publicURL,
	})
	srv := httptest.NewServer(r)
	t.Cleanup(srv.Close)
	return srv.URL
}

// Canaries planted where operators' summaries must never reach: the
// incident's description and raw alert data, and free-text parameters.
const (
	canaryDescription = "CANARY-DESCRIPTION-7d1f"
	canaryRaw         = "CANARY-RAW-ALERT-93be"
	canaryReason      = "CANARY-REASON-51aa"
)

// TestEveryRunDescribesItself starts each kind of run (triage, an action
// waiting for approval, a playbook run with a child action waiting, the
// kill switch) and reads what Temporal shows: every one has a summary
// naming what it is, waiting ones say for whom and until when, and
// nothing shown quotes the incident's description, raw alert data or
// free-text parameters.
func TestEveryRunDescribesItself(t *testing.T) {
	analyst, senior := keyFor(t, store.RoleAnalyst), keyFor(t, store.RoleSenior)
	base := linkingServer(t, "https://vigil.example.com/")
	host := "ws-" + randomSuffix()
	inc := createIncident(t, analyst, map[string]any{"incident_type": "malware", "source": "edr", "severity": "critical",
		"description": "operator notes " + canaryDescription,
		"raw_data":    map[string]any{"HostnameField": host, "CommandLine": "vssadmin delete shadows " + canaryRaw, "DetectName": canaryRaw}})
	incID, number := inc["id"].(string), inc["incident_number"].(string)

	tr := callURL(t, base, http.MethodPost, "/api/incidents/"+incID+"/triage", analyst, map[string]any{})
	if tr.Status != http.StatusOK && tr.Status != http.StatusAccepted && tr.Status != http.StatusCreated {
		t.Fatalf("triage: %s", tr.Raw)
	}
	triageWF := tr.data()["workflow_id"].(string)
	triage := eventuallyView(t, triageWF, func(v runView) bool { return strings.HasPrefix(v.Current, "completed") })
	wantContains(t, "triage summary", triage.Summary, "triage "+number+" (malware, critical)")
	wantContains(t, "triage details", triage.Details, "**"+number+" · ", "Requested by: analyst-",
		"[Open "+number+" in Vigil](https://vigil.example.com/incidents/"+incID+")")

	r := callURL(t, base, http.MethodPost, "/api/incidents/"+incID+"/actions", analyst,
		map[string]any{"action": "isolate_host", "parameters": map[string]any{"host_id": host, "reason": canaryReason}})
	expectStatus(t, r, http.StatusCreated)
	actionWF := workflows.ActionWorkflowID(r.data()["action_id"].(string))
	action := eventuallyView(t, actionWF, func(v runView) bool { return strings.HasPrefix(v.Current, "awaiting") })
	wantContains(t, "action summary", action.Summary, "isolate_host "+host+" · "+number+" (critical) · requested by analyst-")
	wantContains(t, "action details", action.Details, "host_id: `"+host+"`", "reason: (", "incidents/"+incID)
	wantContains(t, "waiting action's current details", action.Current, "awaiting senior approval since ", " UTC, expires ")
	expires := time.Now().UTC().Add(72 * time.Hour).Format("2006-01-02")
	wantContains(t, "approval expiry", action.Current, "expires "+expires)

	run := call(t, http.MethodPost, "/api/playbooks/"+builtinPlaybookID(t, "Malware containment")+"/run", senior,
		map[string]any{"incident_id": incID})
	if run.Status != http.StatusAccepted && run.Status != http.StatusCreated {
		t.Fatalf("playbook run: %s", run.Raw)
	}
	runWF := run.data()["workflow_id"].(string)
	pb := eventuallyView(t, runWF, func(v runView) bool { return strings.Contains(v.Current, "waiting for senior approval") })
	wantContains(t, "playbook summary", pb.Summary, `playbook "Malware containment" v`, " · "+number)
	wantContains(t, "playbook current details", pb.Current, "step ", ": isolate_host, waiting for senior approval")
	wantContains(t, "playbook details", pb.Details, "Triggered by", "/api/incidents/"+incID)
	child := incidentAction(t, incID, "isolate_host", func(a map[string]any) bool {
		return a["workflow_id"] != actionWF && a["status"] == "pending_approval"
	})
	cv := eventuallyView(t, child["workflow_id"].(string), func(v runView) bool { return strings.HasPrefix(v.Current, "awaiting") })
	wantContains(t, "playbook child summary", cv.Summary, "isolate_host "+host+" · "+number+" (critical) · requested by senior-")
	wantContains(t, "playbook child details", cv.Details, `playbook "Malware containment", step "isolate_host"`)

	manager := keyFor(t, store.RoleManager)
	setKillSwitch(t, manager, true)
	t.Cleanup(func() { setKillSwitch(t, manager, false) })
	ks := eventuallyView(t, workflows.KillSwitchWorkflowID, func(v runView) bool { return strings.HasPrefix(v.Current, "ACTIVE") })
	wantContains(t, "kill switch", ks.Summary+ks.Current, "kill switch", "suspected automation loop")

	all := `IncidentNumber = "` + number + `"`
	eventuallyListed(t, all, []string{triageWF, actionWF, runWF, child["workflow_id"].(string)}, nil)
	for _, id := range listRuns(t, all) {
		if v := describeRun(t, id); strings.Contains(v.String(), "CANARY") {
			t.Errorf("run %s shows raw alert content or free text:\n%s", id, v.String())
		}
	}
}

func wantContains(t *testing.T, what, got string, parts ...string) {
	t.Helper()
	for _, p := range parts {
		if !strings.Contains(got, p) {
			t.Errorf("%s lacks %q:\n%s", what, p, got)
		}
	}
}

// TestSavedViewQueries runs the README's saved views against the dev
// server: all runs of an incident, the senior approval queue and the
// failed runs of the day each list the right runs.
func TestSavedViewQueries(t *testing.T) {
	analyst := keyFor(t, store.RoleAnalyst)
	inc := createIncident(t, analyst, map[string]any{"incident_type": "malware", "source": "edr", "severity": "high"})
	incID, number := inc["id"].(string), inc["incident_number"].(string)
	request := func(action string, params map[string]any) (string, response) {
		r := call(t, http.MethodPost, "/api/incidents/"+incID+"/actions", analyst, map[string]any{"action": action, "parameters": params})
		expectStatus(t, r, http.StatusCreated)
		return workflows.ActionWorkflowID(r.data()["action_id"].(string)), r
	}
	isolate, _ := request("isolate_host", map[string]any{"host_id": "ws-" + randomSuffix()})
	scan, sr := request("scan_host", map[string]any{"host_id": "ws-" + randomSuffix()})
	if sr.data()["status"] != "completed" {
		t.Fatalf("scan_host did not run at once: %s", sr.Raw)
	}
	release, rr := request("release_email", map[string]any{"message_id": "never-quarantined-" + randomSuffix()})
	approved := call(t, http.MethodPost, "/api/actions/"+rr.data()["action_id"].(string)+"/approve", keyFor(t, store.RoleAnalyst), nil)
	if approved.data()["status"] != "failed" {
		t.Fatalf("release of a message never quarantined: %s", approved.Raw)
	}

	inIncident := ` AND IncidentNumber = "` + number + `"`
	eventuallyListed(t, `IncidentNumber = "`+number+`"`, []string{isolate, scan, release}, nil)
	eventuallyListed(t, `ActionStatus = "pending_approval" AND ApprovalLevel = "senior"`, []string{isolate}, []string{scan, release})
	eventuallyListed(t, `ActionStatus = "pending_approval" AND ApprovalLevel = "senior"`+inIncident, []string{isolate}, nil)
	today := time.Now().UTC().Format("2006-01-02") + "T00:00:00Z"
	eventuallyListed(t, `(ActionStatus = "failed" OR ExecutionStatus = "Failed") AND StartTime >= "`+today+`"`,
		[]string{release}, []string{isolate, scan})
	eventuallyListed(t, `ActionStatus = "completed"`+inIncident, []string{scan}, []string{isolate, release})
}
