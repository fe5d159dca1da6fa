package api_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/vigil-soc/vigil/settings"
	"github.com/vigil-soc/vigil/store"
)

func TestSettingsAPI(t *testing.T) {
	h := newIsolatedServer(t)
	r := callURL(t, h.url, http.MethodGet, "/api/settings", h.adminKey, nil)
	expectStatus(t, r, http.StatusOK)
	if len(r.Body["data"].([]any)) != len(settings.Keys()) {
		t.Fatalf("settings list: %s", r.Raw)
	}
	r = callURL(t, h.url, http.MethodGet, "/api/settings/general", h.adminKey, nil)
	expectStatus(t, r, http.StatusOK)
	if r.data()["value"].(map[string]any)["approval_expiry_hours"] != 72.0 {
		t.Fatalf("general defaults: %s", r.Raw)
	}
	expectStatus(t, callURL(t, h.url, http.MethodGet, "/api/settings/nope", h.adminKey, nil), http.StatusNotFound)

	bad := callURL(t, h.url, http.MethodPut, "/api/settings/rate_limits", h.adminKey,
		map[string]any{"read_per_minute": 0, "write_per_minute": "many", "extra": 1})
	expectStatus(t, bad, http.StatusUnprocessableEntity)
	for _, f := range []string{"read_per_minute", "write_per_minute", "extra"} {
		if _, ok := bad.errDetails()[f]; !ok {
			t.Errorf("details do not name %q: %s", f, bad.Raw)
		}
	}
	// Without VIGIL_SECRET_KEY a secret cannot be stored, and says why.
	llm := callURL(t, h.url, http.MethodPut, "/api/settings/llm", h.adminKey, map[string]any{
		"enabled": true, "base_url": "http://127.0.0.1:11434/v1", "model": "llama3", "api_key": "sk-live-123",
	})
	expectStatus(t, llm, http.StatusUnprocessableEntity)
	if !strings.Contains(string(llm.Raw), "VIGIL_SECRET_KEY") {
		t.Fatalf("llm without secret key: %s", llm.Raw)
	}

	ok := callURL(t, h.url, http.MethodPut, "/api/settings/general", h.adminKey, map[string]any{"instance_name": "SOC East", "allow_self_approval": true})
	expectStatus(t, ok, http.StatusOK)
	if ok.data()["updated_by"] != "admin" {
		t.Fatalf("updated_by: %s", ok.Raw)
	}
}

func TestSettingsWritesNeedAdmin(t *testing.T) {
	r := call(t, http.MethodPut, "/api/settings/general", keyFor(t, store.RoleManager), map[string]any{"instance_name": "x"})
	expectStatus(t, r, http.StatusForbidden)
	expectStatus(t, call(t, http.MethodGet, "/api/settings/general", keyFor(t, store.RoleViewer), nil), http.StatusOK)
}
