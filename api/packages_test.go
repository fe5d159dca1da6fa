package api_test

import (
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/vigil-soc/vigil/api"
	"github.com/vigil-soc/vigil/content"
	"github.com/vigil-soc/vigil/internal/testenv"
	"github.com/vigil-soc/vigil/store"
)

// versionedServer is an isolated router reporting the given Vigil version.
func versionedServer(t *testing.T, version string) *isolated {
	t.Helper()
	h := newIsolatedServer(t)
	srv := httptest.NewServer(api.NewRouter(api.Options{
		Store: h.store, Temporal: env.temporal, Settings: h.settings, Log: testenv.Logger(), Version: version,
	}))
	t.Cleanup(srv.Close)
	h.url = srv.URL
	return h
}

func roleKey(t *testing.T, st *store.Store, role string) string {
	t.Helper()
	name := fmt.Sprintf("%s-%d", role, userSeqNext())
	u, err := st.CreateUser(context.Background(), store.NewUser{Username: name, Email: name + "@example.com", Role: role})
	if err != nil {
		t.Fatal(err)
	}
	_, key, err := st.CreateAPIKey(context.Background(), u.ID, "test", nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	return key
}

func userSeqNext() int { userSeq++; return userSeq }

func teamPackage(name, version string, extra ...map[string]any) map[string]any {
	contents := []any{
		map[string]any{"type": "playbook", "name": name + " containment", "data": map[string]any{"name": name + " containment",
			"steps": []any{map[string]any{"name": "isolate", "action": "isolate_host", "parameters": map[string]any{"host_id": "h1"}}}}},
		map[string]any{"type": "knowledge", "title": name + " runbook", "content": "# Runbook\n\nStep <script>alert(1)</script> one.",
			"incident_types": []string{"malware"}},
		map[string]any{"type": "query", "name": name + "-odd-logons", "query_type": "sql", "query": "SELECT 1"},
	}
	for _, e := range extra {
		contents = append(contents, e)
	}
	return map[string]any{"manifest": map[string]any{"name": name, "version": version, "description": "d", "author": "blue"},
		"contents": contents}
}

func TestPackageImportExportOverHTTP(t *testing.T) {
	h := versionedServer(t, "2.3.0")
	senior, manager, analyst := roleKey(t, h.store, store.RoleSenior), roleKey(t, h.store, store.RoleManager), roleKey(t, h.store, store.RoleAnalyst)
	pkg := teamPackage("edr", "1.0.0")

	// Roles: seniors validate, managers import, analysts neither.
	expectStatus(t, callURL(t, h.url, http.MethodPost, "/api/v1/packages/validate", analyst, pkg), http.StatusForbidden)
	expectStatus(t, callURL(t, h.url, http.MethodPost, "/api/v1/packages/import", senior, map[string]any{"package": pkg}), http.StatusForbidden)

	r := callURL(t, h.url, http.MethodPost, "/api/v1/packages/validate", senior, pkg)
	expectStatus(t, r, http.StatusOK)
	if r.data()["valid"] != true || r.data()["content_count"] != float64(3) {
		t.Fatalf("validate: %s", r.Raw)
	}

	// A preview writes nothing.
	r = callURL(t, h.url, http.MethodPost, "/api/v1/packages/import", manager, map[string]any{"package": pkg, "dry_run": true})
	expectStatus(t, r, http.StatusOK)
	if r.data()["imported"] != float64(3) {
		t.Fatalf("preview: %s", r.Raw)
	}
	expectStatus(t, callURL(t, h.url, http.MethodGet, "/api/v1/packages/edr", manager, nil), http.StatusNotFound)

	r = callURL(t, h.url, http.MethodPost, "/api/v1/packages/import", manager, map[string]any{"package": pkg})
	expectStatus(t, r, http.StatusOK)
	if r.data()["imported"] != float64(3) || r.data()["skipped"] != float64(0) || len(r.data()["errors"].([]any)) != 0 {
		t.Fatalf("import: %s", r.Raw)
	}
	r = callURL(t, h.url, http.MethodGet, "/api/v1/packages/edr", analyst, nil)
	expectStatus(t, r, http.StatusOK)
	if r.data()["version"] != "1.0.0" || r.data()["item_count"] != float64(3) || r.data()["installed_by"] == "" {
		t.Fatalf("installed package: %s", r.Raw)
	}
	list := callURL(t, h.url, http.MethodGet, "/api/v1/packages", analyst, nil)
	if !strings.Contains(string(list.Raw), `"name":"edr"`) {
		t.Fatalf("list: %s", list.Raw)
	}

	// Export the playbook and import it back under rename: a copy appears.
	pb, err := h.store.PlaybookByName(context.Background(), "edr containment")
	if err != nil {
		t.Fatal(err)
	}
	manifest := map[string]any{"name": "edr-export", "version": "1.0.0", "description": "one playbook", "author": "blue"}
	r = callURL(t, h.url, http.MethodPost, "/api/v1/packages/export/playbook/"+pb.ID, senior, manifest)
	expectStatus(t, r, http.StatusOK)
	exported := r.data()
	if exported["contents"].([]any)[0].(map[string]any)["data"].(map[string]any)["steps"] == nil {
		t.Fatalf("export: %s", r.Raw)
	}
	r = callURL(t, h.url, http.MethodPost, "/api/v1/packages/import", manager, map[string]any{"package": exported, "conflict_resolution": "rename"})
	expectStatus(t, r, http.StatusOK)
	item := r.data()["items"].([]any)[0].(map[string]any)
	if item["action"] != "renamed" || item["installed_as"] != "edr containment-imported-1" {
		t.Fatalf("rename: %s", r.Raw)
	}
	bad := map[string]any{"name": "edr-export", "version": "one"}
	r = callURL(t, h.url, http.MethodPost, "/api/v1/packages/export/playbook/"+pb.ID, senior, bad)
	expectStatus(t, r, http.StatusUnprocessableEntity)
	expectStatus(t, callURL(t, h.url, http.MethodPost, "/api/v1/packages/export/hunt/00000000-0000-0000-0000-000000000000", senior, manifest), http.StatusNotFound)

	// A package for another Vigil version is refused, naming both.
	newer := teamPackage("future", "1.0.0")
	newer["manifest"].(map[string]any)["compatibility"] = ">=3.0.0"
	r = callURL(t, h.url, http.MethodPost, "/api/v1/packages/import", manager, map[string]any{"package": newer})
	expectStatus(t, r, http.StatusUnprocessableEntity)
	if d := r.errDetails(); r.errCode() != api.CodeIncompatiblePackage || d["compatibility"] != ">=3.0.0" || d["running_version"] != "2.3.0" {
		t.Fatalf("incompatible: %s", r.Raw)
	}
	r = callURL(t, h.url, http.MethodPost, "/api/v1/packages/import", manager, map[string]any{"package": pkg, "conflict_resolution": "merge"})
	expectStatus(t, r, http.StatusUnprocessableEntity)

	// Delete removes what nobody changed and keeps the rest.
	a, err := h.store.KnowledgeByTitle(context.Background(), "edr runbook")
	if err != nil {
		t.Fatal(err)
	}
	r = callURL(t, h.url, http.MethodPut, "/api/v1/knowledge/"+a.ID, analyst, map[string]any{"title": a.Title, "content": "ours now"})
	expectStatus(t, r, http.StatusOK)
	expectStatus(t, callURL(t, h.url, http.MethodDelete, "/api/v1/packages/edr", senior, nil), http.StatusForbidden)
	r = callURL(t, h.url, http.MethodDelete, "/api/v1/packages/edr", manager, nil)
	expectStatus(t, r, http.StatusOK)
	kept := r.data()["kept"].([]any)
	if len(kept) != 1 || kept[0].(map[string]any)["name"] != "edr runbook" || len(r.data()["removed"].([]any)) != 2 {
		t.Fatalf("delete: %s", r.Raw)
	}
	expectStatus(t, callURL(t, h.url, http.MethodDelete, "/api/v1/packages/edr", manager, nil), http.StatusNotFound)
}

func TestPackageLimitsOverHTTP(t *testing.T) {
	h := newIsolatedServer(t)
	manager := roleKey(t, h.store, store.RoleManager)
	huge := teamPackage("huge", "1.0.0")
	huge["manifest"].(map[string]any)["description"] = strings.Repeat("x", content.MaxSize)
	r := callURL(t, h.url, http.MethodPost, "/api/v1/packages/validate", manager, huge)
	expectStatus(t, r, http.StatusRequestEntityTooLarge)
	// Over the general body limit but within the package limit is fine.
	big := teamPackage("big", "1.0.0")
	big["contents"].([]any)[1].(map[string]any)["content"] = strings.Repeat("word ", 50000)
	for i := 0; i < 6; i++ {
		big["contents"] = append(big["contents"].([]any), map[string]any{"type": "knowledge",
			"title": fmt.Sprintf("big %d", i), "content": strings.Repeat("word ", 50000)})
	}
	r = callURL(t, h.url, http.MethodPost, "/api/v1/packages/validate", manager, big)
	expectStatus(t, r, http.StatusOK)
	many := teamPackage("many", "1.0.0")
	for i := 0; i <= content.MaxItems; i++ {
		many["contents"] = append(many["contents"].([]any), map[string]any{"type": "knowledge", "title": fmt.Sprint(i)})
	}
	expectStatus(t, callURL(t, h.url, http.MethodPost, "/api/v1/packages/validate", manager, many), http.StatusUnprocessableEntity)
	expectStatus(t, callURL(t, h.url, http.MethodPost, "/api/v1/packages/validate", manager, "["+strings.Repeat("[", 5000)), http.StatusBadRequest)
	r = callURL(t, h.url, http.MethodPost, "/api/v1/packages/import", manager, map[string]any{"package": map[string]any{"manifest": map[string]any{"name": "x"}}})
	expectStatus(t, r, http.StatusUnprocessableEntity)
	if r.errCode() != api.CodeInvalidPackage {
		t.Fatalf("manifest without version: %s", r.Raw)
	}
}

func TestPackageSignaturePolicyFromSettings(t *testing.T) {
	h := newIsolatedServer(t)
	manager := roleKey(t, h.store, store.RoleManager)
	pub, priv, _ := ed25519.GenerateKey(rand.Reader)
	policy := map[string]any{"require_signature": true,
		"trusted_keys": []string{"blue=" + base64.StdEncoding.EncodeToString(pub)}}
	expectStatus(t, callURL(t, h.url, http.MethodPut, "/api/settings/packages", h.adminKey, policy), http.StatusOK)
	expectStatus(t, callURL(t, h.url, http.MethodPut, "/api/settings/packages", h.adminKey,
		map[string]any{"require_signature": true, "trusted_keys": []string{"x=short"}}), http.StatusUnprocessableEntity)

	raw, _ := json.Marshal(teamPackage("signed", "1.0.0"))
	p, _, err := content.Check(raw, content.Options{})
	if err != nil {
		t.Fatal(err)
	}
	r := callURL(t, h.url, http.MethodPost, "/api/v1/packages/import", manager, map[string]any{"package": p})
	expectStatus(t, r, http.StatusUnprocessableEntity)
	if !strings.Contains(string(r.Raw), "not signed") {
		t.Fatalf("unsigned: %s", r.Raw)
	}
	if err := content.Sign(p, priv); err != nil {
		t.Fatal(err)
	}
	r = callURL(t, h.url, http.MethodPost, "/api/v1/packages/import", manager, map[string]any{"package": p})
	expectStatus(t, r, http.StatusOK)
	r = callURL(t, h.url, http.MethodGet, "/api/v1/packages/signed", manager, nil)
	if r.data()["signed_by"] != "blue" {
		t.Fatalf("signed_by: %s", r.Raw)
	}
}

func TestKnowledgeBaseOverHTTP(t *testing.T) {
	h := newIsolatedServer(t)
	analyst, viewer, senior := roleKey(t, h.store, store.RoleAnalyst), roleKey(t, h.store, store.RoleViewer), roleKey(t, h.store, store.RoleSenior)
	expectStatus(t, callURL(t, h.url, http.MethodPost, "/api/v1/knowledge", viewer, map[string]any{"title": "x"}), http.StatusForbidden)
	r := callURL(t, h.url, http.MethodPost, "/api/v1/knowledge", analyst, map[string]any{"title": "Credential stuffing",
		"content":        "Block the **source** addresses.\n\n<img src=x onerror=alert(1)> [x](javascript:alert(1))",
		"incident_types": []string{"suspicious_login"}})
	expectStatus(t, r, http.StatusCreated)
	id := r.data()["id"].(string)
	html := r.data()["content_html"].(string)
	if !strings.Contains(html, "<strong>source</strong>") || strings.Contains(html, "onerror") || strings.Contains(html, "javascript:") {
		t.Fatalf("rendered: %s", html)
	}
	expectStatus(t, callURL(t, h.url, http.MethodPost, "/api/v1/knowledge", analyst, map[string]any{"title": "credential STUFFING"}), http.StatusConflict)
	expectStatus(t, callURL(t, h.url, http.MethodPost, "/api/v1/knowledge", analyst, map[string]any{"content": "no title"}), http.StatusUnprocessableEntity)
	expectStatus(t, callURL(t, h.url, http.MethodPost, "/api/v1/knowledge", analyst, map[string]any{"title": "Other", "content": "Unrelated text on printers."}), http.StatusCreated)

	r = callURL(t, h.url, http.MethodGet, "/api/v1/knowledge?q=source+addresses", viewer, nil)
	expectStatus(t, r, http.StatusOK)
	hits := r.Body["data"].([]any)
	if len(hits) != 1 || hits[0].(map[string]any)["id"] != id || !strings.Contains(hits[0].(map[string]any)["snippet"].(string), "**source**") {
		t.Fatalf("search: %s", r.Raw)
	}
	r = callURL(t, h.url, http.MethodGet, "/api/v1/knowledge?incident_type=suspicious_login", viewer, nil)
	if len(r.Body["data"].([]any)) != 1 {
		t.Fatalf("by incident type: %s", r.Raw)
	}
	expectStatus(t, callURL(t, h.url, http.MethodDelete, "/api/v1/knowledge/"+id, analyst, nil), http.StatusForbidden)
	expectStatus(t, callURL(t, h.url, http.MethodDelete, "/api/v1/knowledge/"+id, senior, nil), http.StatusNoContent)
	expectStatus(t, callURL(t, h.url, http.MethodGet, "/api/v1/knowledge/"+id, viewer, nil), http.StatusNotFound)
}
