package api_test

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/vigil-soc/vigil/store"
)

// Triggering a scheduled hunt runs its Temporal Schedule now: the run is
// the schedule's own (its workflow ID, trigger scheduled, listed among the
// schedule's recent actions), answered like execute.
func TestTriggerAScheduledHuntNow(t *testing.T) {
	demoSource(t, "demo-trigger")
	senior, analyst := keyFor(t, store.RoleSenior), keyFor(t, store.RoleAnalyst)
	body := map[string]any{"name": "weekly spray", "hunt_type": "scheduled", "status": "active",
		"data_sources": []string{"demo-trigger"}, "schedule": map[string]any{"cron_expression": "0 6 * * 1", "timezone": "UTC"},
		"queries": []map[string]any{{"library_id": "ca-password-spray"}}}
	r := call(t, http.MethodPost, "/api/v1/hunts", senior, body)
	expectStatus(t, r, http.StatusCreated)
	id := r.data()["id"].(string)
	path := "/api/v1/hunts/" + id + "/schedule/trigger"

	expectStatus(t, call(t, http.MethodPost, path, analyst, nil), http.StatusForbidden)
	r = call(t, http.MethodPost, path, senior, nil)
	expectStatus(t, r, http.StatusOK)
	run := r.data()
	wid, _ := run["workflow_id"].(string)
	if run["status"] != "completed" || run["trigger"] != "scheduled" || !strings.HasPrefix(wid, "hunt/"+id+"/scheduled-") ||
		run["total_findings"] == float64(0) || run["new_findings"] != run["total_findings"] {
		t.Fatalf("triggered run: %s", r.Raw)
	}
	d, err := env.temporal.ScheduleClient().GetHandle(context.Background(), "hunt-schedule/"+id).Describe(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	listed := false
	for _, a := range d.Info.RecentActions {
		listed = listed || (a.StartWorkflowResult != nil && a.StartWorkflowResult.WorkflowID == wid)
	}
	if !listed {
		t.Fatalf("the schedule's recent actions do not list %s", wid)
	}

	// A second trigger is a second run; the same evidence is already seen.
	r = call(t, http.MethodPost, path, senior, nil)
	expectStatus(t, r, http.StatusOK)
	if r.data()["workflow_id"] == wid || r.data()["new_findings"] != float64(0) || r.data()["total_findings"] != run["total_findings"] {
		t.Fatalf("second triggered run: %s", r.Raw)
	}

	body["status"] = "paused"
	expectStatus(t, call(t, http.MethodPut, "/api/v1/hunts/"+id, senior, body), http.StatusOK)
	r = call(t, http.MethodPost, path, senior, nil)
	if r.Status != http.StatusConflict || r.errCode() != "hunt_not_executable" {
		t.Fatalf("trigger of a paused hunt: %d %s", r.Status, r.Raw)
	}

	once := call(t, http.MethodPost, "/api/v1/hunts", senior, map[string]any{"name": "once", "hunt_type": "on_demand",
		"status": "active", "data_sources": []string{"demo-trigger"}, "queries": []map[string]any{{"library_id": "ca-brute-force"}}})
	expectStatus(t, once, http.StatusCreated)
	r = call(t, http.MethodPost, "/api/v1/hunts/"+once.data()["id"].(string)+"/schedule/trigger", senior, nil)
	if r.Status != http.StatusConflict || r.errCode() != "hunt_not_scheduled" {
		t.Fatalf("trigger of an on_demand hunt: %d %s", r.Status, r.Raw)
	}
	expectStatus(t, call(t, http.MethodPost, "/api/v1/hunts/nope/schedule/trigger", senior, nil), http.StatusNotFound)
}
