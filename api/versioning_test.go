package api_test

import (
	"encoding/json"
	"net/http"
	"testing"
)

// TestV1PrefixServesTheSameRoutes: every /api route answers under /api/v1
// with the same access rule; unknown v1 paths are 404 envelopes.
func TestV1PrefixServesTheSameRoutes(t *testing.T) {
	analyst, viewer := keyFor(t, "analyst"), keyFor(t, "viewer")
	r := call(t, http.MethodPost, "/api/v1/incidents", analyst,
		map[string]any{"incident_type": "phishing", "source": "v1", "severity": "low"})
	expectStatus(t, r, http.StatusCreated)
	id := r.data()["id"].(string)
	got := call(t, http.MethodGet, "/api/incidents/"+id, viewer, nil)
	expectStatus(t, got, http.StatusOK)
	if got.data()["source"] != "v1" {
		t.Fatalf("incident created under /api/v1 reads back as %v", got.data())
	}
	expectStatus(t, call(t, http.MethodGet, "/api/v1/incidents/"+id, viewer, nil), http.StatusOK)
	// The same rules: a viewer may not create, no key is 401.
	expectStatus(t, call(t, http.MethodPost, "/api/v1/incidents", viewer, map[string]any{}), http.StatusForbidden)
	expectStatus(t, call(t, http.MethodGet, "/api/v1/incidents", "", nil), http.StatusUnauthorized)
	nf := call(t, http.MethodGet, "/api/v1/no-such-thing", viewer, nil)
	if nf.Status != http.StatusNotFound || nf.errCode() != "not_found" {
		t.Fatalf("unknown v1 path: %d %s", nf.Status, nf.Raw)
	}
}

// TestOpenAPIDocumentIsServed: the document answers without credentials at
// both prefixes and lists the v1 aliases.
func TestOpenAPIDocumentIsServed(t *testing.T) {
	for _, p := range []string{"/api/openapi.json", "/api/v1/openapi.json"} {
		r := call(t, http.MethodGet, p, "", nil)
		expectStatus(t, r, http.StatusOK)
		var doc struct {
			OpenAPI string                    `json:"openapi"`
			Paths   map[string]map[string]any `json:"paths"`
		}
		if err := json.Unmarshal(r.Raw, &doc); err != nil || doc.OpenAPI != "3.1.0" {
			t.Fatalf("%s: %v %.200s", p, err, r.Raw)
		}
		for _, path := range []string{"/api/incidents/{id}", "/api/v1/incidents/{id}", "/api/v1/webhooks/{source}"} {
			if doc.Paths[path] == nil {
				t.Errorf("%s lacks %s", p, path)
			}
		}
	}
}
