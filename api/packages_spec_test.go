package api_test

import (
	"context"
	"net/http"
	"testing"

	"github.com/vigil-soc/vigil/store"
)

// otherPackage is a package named name holding the same items as from, so
// every item meets one of the same name already installed.
func otherPackage(name string, from map[string]any) map[string]any {
	return map[string]any{"manifest": map[string]any{"name": name, "version": "1.0.0", "description": "d", "author": "red"},
		"contents": from["contents"]}
}

func TestPackageImportConflictModesOverHTTP(t *testing.T) {
	h := newIsolatedServer(t)
	manager := roleKey(t, h.store, store.RoleManager)
	pkg := teamPackage("ndr", "1.0.0")
	expectStatus(t, callURL(t, h.url, http.MethodPost, "/api/v1/packages/import", manager, map[string]any{"package": pkg}), http.StatusOK)
	a, err := h.store.KnowledgeByTitle(context.Background(), "ndr runbook")
	if err != nil {
		t.Fatal(err)
	}
	r := callURL(t, h.url, http.MethodPut, "/api/v1/knowledge/"+a.ID, manager, map[string]any{"title": a.Title, "content": "ours now"})
	expectStatus(t, r, http.StatusOK)
	content := func() string {
		t.Helper()
		a, err := h.store.KnowledgeByTitle(context.Background(), "ndr runbook")
		if err != nil {
			t.Fatal(err)
		}
		return a.Content
	}

	// Without conflict_resolution the existing items stay: skip.
	r = callURL(t, h.url, http.MethodPost, "/api/v1/packages/import", manager, map[string]any{"package": otherPackage("ndr-copy", pkg)})
	expectStatus(t, r, http.StatusOK)
	if r.data()["imported"] != float64(0) || r.data()["skipped"] != float64(3) || len(r.data()["errors"].([]any)) != 0 {
		t.Fatalf("default import: %s", r.Raw)
	}
	for _, it := range r.data()["items"].([]any) {
		if it.(map[string]any)["action"] != "skipped" {
			t.Fatalf("default import item: %v", it)
		}
	}
	if got := content(); got != "ours now" {
		t.Fatalf("skip changed the article: %q", got)
	}

	// overwrite replaces them with the package's.
	r = callURL(t, h.url, http.MethodPost, "/api/v1/packages/import", manager,
		map[string]any{"package": otherPackage("ndr-over", pkg), "conflict_resolution": "overwrite"})
	expectStatus(t, r, http.StatusOK)
	if r.data()["imported"] != float64(3) || r.data()["skipped"] != float64(0) {
		t.Fatalf("overwrite: %s", r.Raw)
	}
	if got := content(); got == "ours now" {
		t.Fatal("overwrite kept the local article")
	}
}

func TestPackageValidateAnswersProblemsOverHTTP(t *testing.T) {
	h := newIsolatedServer(t)
	senior := roleKey(t, h.store, store.RoleSenior)
	pkg := teamPackage("bad", "1.0.0")
	pkg["contents"].([]any)[0].(map[string]any)["name"] = ""
	r := callURL(t, h.url, http.MethodPost, "/api/v1/packages/validate", senior, pkg)
	expectStatus(t, r, http.StatusOK)
	d := r.data()
	errs, _ := d["errors"].([]any)
	if d["valid"] != false || d["content_count"] != float64(3) || len(errs) == 0 {
		t.Fatalf("invalid package: %s", r.Raw)
	}
	first := errs[0].(map[string]any)
	if first["index"] != float64(0) || first["field"] != "name" || first["message"] == "" {
		t.Fatalf("error entry: %v", first)
	}
	if _, ok := d["warnings"].([]any); !ok {
		t.Fatalf("warnings is not an array: %s", r.Raw)
	}
}

func TestPackageImportReportsItemErrorsOverHTTP(t *testing.T) {
	h := newIsolatedServer(t)
	manager := roleKey(t, h.store, store.RoleManager)
	pkg := teamPackage("half", "1.0.0", map[string]any{"type": "query", "name": "half-broken", "query_type": "cobol", "query": "x"})
	r := callURL(t, h.url, http.MethodPost, "/api/v1/packages/import", manager, map[string]any{"package": pkg})
	expectStatus(t, r, http.StatusOK)
	errs, _ := r.data()["errors"].([]any)
	if r.data()["imported"] != float64(3) || len(errs) != 1 {
		t.Fatalf("import with a bad item: %s", r.Raw)
	}
	e := errs[0].(map[string]any)
	if e["index"] != float64(3) || e["field"] != "query_type" || e["message"] == "" {
		t.Fatalf("error entry: %v", e)
	}
	if _, err := h.store.GetPackageQuery(context.Background(), "half-broken"); err == nil {
		t.Fatal("the bad query was installed")
	}
}

func TestPackageScheduledHuntOverHTTP(t *testing.T) {
	h := newIsolatedServer(t)
	senior, manager := roleKey(t, h.store, store.RoleSenior), roleKey(t, h.store, store.RoleManager)
	weekly := map[string]any{"type": "hunt", "name": "soc weekly", "data": map[string]any{"hypothesis": "odd logons",
		"hunt_type": "scheduled", "status": "active", "schedule": map[string]any{"cron_expression": "0 6 * * 1"},
		"queries": []any{map[string]any{"library_id": "soc-odd-logons"}}}}
	r := callURL(t, h.url, http.MethodPost, "/api/v1/packages/import", manager, map[string]any{"package": teamPackage("soc", "1.0.0", weekly)})
	expectStatus(t, r, http.StatusOK)
	if r.data()["imported"] != float64(4) {
		t.Fatalf("import: %s", r.Raw)
	}
	hunt, err := h.store.HuntByName(context.Background(), "soc weekly")
	if err != nil {
		t.Fatal(err)
	}
	schedule := env.temporal.ScheduleClient().GetHandle(context.Background(), "hunt-schedule/"+hunt.ID)
	if _, err := schedule.Describe(context.Background()); err != nil {
		t.Fatalf("imported scheduled hunt has no schedule: %v", err)
	}

	// Its export carries the package query it uses.
	manifest := map[string]any{"name": "soc-weekly", "version": "1.0.0", "description": "one hunt", "author": "blue"}
	r = callURL(t, h.url, http.MethodPost, "/api/v1/packages/export/hunt/"+hunt.ID, senior, manifest)
	expectStatus(t, r, http.StatusOK)
	contents := r.data()["contents"].([]any)
	if len(contents) != 2 || contents[0].(map[string]any)["type"] != "hunt" ||
		contents[1].(map[string]any)["type"] != "query" || contents[1].(map[string]any)["name"] != "soc-odd-logons" {
		t.Fatalf("hunt export: %s", r.Raw)
	}

	expectStatus(t, callURL(t, h.url, http.MethodDelete, "/api/v1/packages/soc", manager, nil), http.StatusOK)
	if _, err := schedule.Describe(context.Background()); err == nil {
		t.Fatal("the schedule outlived the package that installed its hunt")
	}
}
