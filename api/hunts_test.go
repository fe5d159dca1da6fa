package api_test

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/vigil-soc/vigil/hunt/events"
	"github.com/vigil-soc/vigil/hunt/huntest"
	"github.com/vigil-soc/vigil/store"
)

// demoSource loads the demo events into a SQLite file and registers it.
func demoSource(t *testing.T, name string) {
	t.Helper()
	eng := huntest.SQLite(t)
	ctx := context.Background()
	if err := events.CreateSchema(ctx, eng.DB, eng.Name); err != nil {
		t.Fatal(err)
	}
	if _, err := events.Load(ctx, eng.DB, eng.Name, events.Demo(time.Now(), 1)); err != nil {
		t.Fatal(err)
	}
	r := call(t, http.MethodPost, "/api/v1/data-sources", env.adminKey, map[string]any{"name": name, "kind": "sql",
		"config": eng.Settings, "credentials": map[string]string{"note": "sealed"}})
	expectStatus(t, r, http.StatusCreated)
	if r.data()["credentials_set"] != true || strings.Contains(string(r.Raw), "sealed") {
		t.Fatalf("credentials echoed or not kept: %s", r.Raw)
	}
}

func TestHuntLifecycleOverTheAPI(t *testing.T) {
	demoSource(t, "demo-api")
	senior := keyFor(t, store.RoleSenior)
	analyst := keyFor(t, store.RoleAnalyst)

	lib := call(t, http.MethodGet, "/api/v1/hunts/queries/library", analyst, nil)
	expectStatus(t, lib, http.StatusOK)
	if n := len(lib.Body["data"].([]any)); n < 24 {
		t.Fatalf("library lists %d queries", n)
	}

	body := map[string]any{"name": "spray and beacons", "hypothesis": "a sprayer got in and beacons out",
		"hunt_type": "on_demand", "data_sources": []string{"demo-api"}, "mitre_techniques": []string{"T1110.003"},
		"queries": []map[string]any{{"query_type": "sql", "library_id": "ca-password-spray"}, {"library_id": "c2-beaconing"}}}
	expectStatus(t, call(t, http.MethodPost, "/api/v1/hunts", analyst, body), http.StatusForbidden)
	r := call(t, http.MethodPost, "/api/v1/hunts", senior, body)
	expectStatus(t, r, http.StatusCreated)
	id := r.data()["id"].(string)
	if r.data()["status"] != "draft" {
		t.Fatalf("new hunt status %v", r.data()["status"])
	}
	r = call(t, http.MethodPost, "/api/v1/hunts/"+id+"/execute", senior, nil)
	if r.Status != http.StatusConflict || r.errCode() != "hunt_not_executable" {
		t.Fatalf("draft execute: %d %s", r.Status, r.Raw)
	}
	body["status"] = "active"
	expectStatus(t, call(t, http.MethodPut, "/api/v1/hunts/"+id, senior, body), http.StatusOK)

	r = call(t, http.MethodPost, "/api/v1/hunts/"+id+"/execute", senior, nil)
	expectStatus(t, r, http.StatusOK)
	run := r.data()
	findings := run["findings"].([]any)
	if run["status"] != "completed" || run["total_findings"] != float64(2) || len(findings) != 2 {
		t.Fatalf("run: %s", r.Raw)
	}
	f := findings[0].(map[string]any)
	if f["severity"] == "" || f["query"] == "" || f["evidence"] == nil {
		t.Fatalf("finding lacks severity, query or evidence: %v", f)
	}
	res := call(t, http.MethodGet, "/api/v1/hunts/"+id+"/results", analyst, nil)
	expectStatus(t, res, http.StatusOK)
	if latest := res.data()["latest"].(map[string]any); latest["run_id"] != run["run_id"] {
		t.Fatalf("results: %s", res.Raw)
	}

	path := "/api/v1/hunts/" + id + "/findings/" + f["id"].(string) + "/promote"
	p1 := call(t, http.MethodPost, path, analyst, nil)
	expectStatus(t, p1, http.StatusCreated)
	p2 := call(t, http.MethodPost, path, analyst, nil)
	expectStatus(t, p2, http.StatusOK)
	if p1.data()["incident_id"] != p2.data()["incident_id"] {
		t.Fatal("promoting twice made two incidents")
	}
	inc := call(t, http.MethodGet, "/api/incidents/"+p1.data()["incident_id"].(string), analyst, nil)
	expectStatus(t, inc, http.StatusOK)
	raw := inc.data()["raw_data"].(map[string]any)
	if raw["hunt_id"] != id || raw["run_id"] != run["run_id"] || raw["evidence"] == nil || len(raw["mitre_techniques"].([]any)) == 0 {
		t.Fatalf("incident raw_data: %v", raw)
	}
	expectStatus(t, call(t, http.MethodDelete, "/api/v1/hunts/"+id, senior, nil), http.StatusNoContent)
}

func TestHuntValidationNamesTheField(t *testing.T) {
	demoSource(t, "demo-val")
	senior := keyFor(t, store.RoleSenior)
	base := func() map[string]any {
		return map[string]any{"name": "v", "hunt_type": "scheduled", "data_sources": []string{"demo-val"},
			"schedule": map[string]any{"cron_expression": "0 6 * * 1", "timezone": "Europe/Paris"},
			"queries":  []map[string]any{{"library_id": "ca-brute-force"}}}
	}
	cases := []struct {
		name, field, contains string
		edit                  func(map[string]any)
	}{
		{"cron position", "schedule.cron_expression", "field 2 (hour)", func(b map[string]any) {
			b["schedule"] = map[string]any{"cron_expression": "0 25 * * *"}
		}},
		{"cron fields", "schedule.cron_expression", "5 fields", func(b map[string]any) {
			b["schedule"] = map[string]any{"cron_expression": "* * * *"}
		}},
		{"time zone", "schedule.timezone", "unknown time zone", func(b map[string]any) {
			b["schedule"] = map[string]any{"cron_expression": "0 6 * * *", "timezone": "Mars/Olympus"}
		}},
		{"unknown data source", "data_sources", "does not exist", func(b map[string]any) { b["data_sources"] = []string{"nope"} }},
		{"unsupported query type", "queries[0].query_type", "cannot run", func(b map[string]any) {
			b["queries"] = []map[string]any{{"query_type": "siem_search", "query": "search x"}}
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			b := base()
			c.edit(b)
			r := call(t, http.MethodPost, "/api/v1/hunts", senior, b)
			expectStatus(t, r, http.StatusUnprocessableEntity)
			msg, _ := r.errDetails()[c.field].(string)
			if !strings.Contains(msg, c.contains) {
				t.Fatalf("details %v, want %s to say %q", r.errDetails(), c.field, c.contains)
			}
		})
	}
}

func TestScheduledHuntOwnsItsSchedule(t *testing.T) {
	demoSource(t, "demo-sched")
	senior := keyFor(t, store.RoleSenior)
	body := map[string]any{"name": "weekly", "hunt_type": "scheduled", "status": "active", "data_sources": []string{"demo-sched"},
		"schedule": map[string]any{"cron_expression": "0 6 * * 1", "timezone": "Europe/Paris"},
		"queries":  []map[string]any{{"library_id": "ca-brute-force"}}}
	r := call(t, http.MethodPost, "/api/v1/hunts", senior, body)
	expectStatus(t, r, http.StatusCreated)
	id := r.data()["id"].(string)
	state := func() map[string]any {
		g := call(t, http.MethodGet, "/api/v1/hunts/"+id, senior, nil)
		expectStatus(t, g, http.StatusOK)
		s, _ := g.data()["schedule_state"].(map[string]any)
		return s
	}
	s := state()
	if s == nil || s["paused"] != false || len(s["next_runs"].([]any)) != 5 {
		t.Fatalf("schedule after create: %v", s)
	}
	next, _ := time.Parse(time.RFC3339, s["next_runs"].([]any)[0].(string))
	if paris, _ := time.LoadLocation("Europe/Paris"); next.In(paris).Hour() != 6 || next.In(paris).Weekday() != time.Monday {
		t.Fatalf("next run %v is not Monday 06:00 in Paris", next)
	}
	body["status"] = "paused"
	expectStatus(t, call(t, http.MethodPut, "/api/v1/hunts/"+id, senior, body), http.StatusOK)
	if s := state(); s["paused"] != true {
		t.Fatalf("schedule of a paused hunt: %v", s)
	}
	body["status"] = "active"
	expectStatus(t, call(t, http.MethodPut, "/api/v1/hunts/"+id, senior, body), http.StatusOK)
	if s := state(); s["paused"] != false {
		t.Fatalf("schedule of a resumed hunt: %v", s)
	}
	expectStatus(t, call(t, http.MethodDelete, "/api/v1/hunts/"+id, senior, nil), http.StatusNoContent)
	_, err := env.temporal.ScheduleClient().GetHandle(context.Background(), "hunt-schedule/"+id).Describe(context.Background())
	if err == nil {
		t.Fatal("the schedule outlived its hunt")
	}
}
