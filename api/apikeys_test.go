package api_test

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/vigil-soc/vigil/store"
)

func TestAPIKeysAPI(t *testing.T) {
	owner := keyFor(t, store.RoleAnalyst)
	r := call(t, http.MethodPost, "/api/api-keys", owner, map[string]any{
		"name": "ci", "scopes": []string{"read"}, "expires_at": time.Now().Add(24 * time.Hour).UTC().Format(time.RFC3339),
	})
	expectStatus(t, r, http.StatusCreated)
	d := r.data()
	key, _ := d["key"].(string)
	if key == "" || d["key_prefix"] != key[:8] || d["expires_at"] == nil {
		t.Fatalf("create key response: %v", d)
	}
	id := d["id"].(string)

	got := call(t, http.MethodGet, "/api/api-keys/"+id, owner, nil)
	expectStatus(t, got, http.StatusOK)
	if strings.Contains(string(got.Raw), key) || strings.Contains(string(got.Raw), "hash") {
		t.Fatalf("key read leaks the key or its hash: %s", got.Raw)
	}
	list := call(t, http.MethodGet, "/api/api-keys", owner, nil)
	if strings.Contains(string(list.Raw), key) || !strings.Contains(string(list.Raw), id) {
		t.Fatalf("key list: %s", list.Raw)
	}

	// The new key works, within its scope only.
	expectStatus(t, call(t, http.MethodGet, "/api/incidents", key, nil), http.StatusOK)
	expectStatus(t, call(t, http.MethodPost, "/api/incidents", key, map[string]any{}), http.StatusForbidden)

	// Someone else's key is invisible; an admin sees and revokes it.
	stranger := keyFor(t, store.RoleManager)
	expectStatus(t, call(t, http.MethodGet, "/api/api-keys/"+id, stranger, nil), http.StatusNotFound)
	expectStatus(t, call(t, http.MethodDelete, "/api/api-keys/"+id, stranger, nil), http.StatusNotFound)
	expectStatus(t, call(t, http.MethodGet, "/api/api-keys/"+id, env.adminKey, nil), http.StatusOK)
	expectStatus(t, call(t, http.MethodDelete, "/api/api-keys/"+id, owner, nil), http.StatusNoContent)
	// Revocation holds on the very next request.
	expectStatus(t, call(t, http.MethodGet, "/api/incidents", key, nil), http.StatusUnauthorized)
	expectStatus(t, call(t, http.MethodDelete, "/api/api-keys/"+id, owner, nil), http.StatusConflict)
}

func TestAPIKeyCreationIsValidated(t *testing.T) {
	viewer := keyFor(t, store.RoleViewer)
	cases := map[string]map[string]any{
		"name":       {"scopes": []string{"read"}},
		"scopes":     {"name": "x", "scopes": []string{"write"}},
		"expires_at": {"name": "x", "expires_at": "2001-01-01T00:00:00Z"},
	}
	for field, body := range cases {
		r := call(t, http.MethodPost, "/api/api-keys", viewer, body)
		expectStatus(t, r, http.StatusUnprocessableEntity)
		if _, ok := r.errDetails()[field]; !ok {
			t.Errorf("details do not name %q: %s", field, r.Raw)
		}
	}
	r := call(t, http.MethodPost, "/api/api-keys", viewer, map[string]any{"name": "x", "scopes": []string{"superpowers"}})
	expectStatus(t, r, http.StatusUnprocessableEntity)
	// Only an admin mints keys for someone else.
	me := call(t, http.MethodGet, "/api/users/me", viewer, nil).data()
	r = call(t, http.MethodPost, "/api/api-keys", keyFor(t, store.RoleManager), map[string]any{"name": "x", "user_id": me["id"]})
	expectStatus(t, r, http.StatusForbidden)
	r = call(t, http.MethodPost, "/api/api-keys", env.adminKey, map[string]any{"name": "for viewer", "user_id": me["id"]})
	expectStatus(t, r, http.StatusCreated)
	if r.data()["user_id"] != me["id"] {
		t.Fatalf("admin-created key owner: %v", r.data())
	}
}
