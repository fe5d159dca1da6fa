package api_test

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/vigil-soc/vigil/store"
)

func TestUsersAPI(t *testing.T) {
	name := "jane-" + randomSuffix()
	r := call(t, http.MethodPost, "/api/users", env.adminKey, map[string]any{
		"username": name, "email": name + "@corp.example", "role": "senior",
		"display_name": "Jane", "password": testPassword,
	})
	expectStatus(t, r, http.StatusCreated)
	u := r.data()
	for _, f := range []string{"id", "email", "username", "role", "display_name", "enabled", "last_login_at", "created_at", "updated_at"} {
		if _, ok := u[f]; !ok {
			t.Errorf("user lacks %q", f)
		}
	}
	if strings.Contains(string(r.Raw), "password") || strings.Contains(string(r.Raw), "$2a$") {
		t.Fatalf("user response mentions the password: %s", r.Raw)
	}
	id := u["id"].(string)

	dup := call(t, http.MethodPost, "/api/users", env.adminKey, map[string]any{"username": strings.ToUpper(name), "email": "x-" + name + "@corp.example", "role": "viewer"})
	expectStatus(t, dup, http.StatusConflict)

	bad := call(t, http.MethodPost, "/api/users", env.adminKey, map[string]any{"username": "a b", "email": "not-an-email", "role": "root", "password": "short"})
	expectStatus(t, bad, http.StatusUnprocessableEntity)
	for _, f := range []string{"username", "email", "role", "password"} {
		if _, ok := bad.errDetails()[f]; !ok {
			t.Errorf("details do not name %q: %s", f, bad.Raw)
		}
	}

	upd := call(t, http.MethodPut, "/api/users/"+id, env.adminKey, map[string]any{"role": "manager", "display_name": "Jane D."})
	expectStatus(t, upd, http.StatusOK)
	if upd.data()["role"] != "manager" {
		t.Fatalf("role not updated: %v", upd.data())
	}
	expectStatus(t, call(t, http.MethodPut, "/api/users/"+id, env.adminKey, map[string]any{"username": "renamed"}), http.StatusUnprocessableEntity)

	listed := false
	for _, page := range allPages(t, "/api/users", keyFor(t, store.RoleManager)) {
		listed = listed || strings.Contains(string(page.Raw), name)
		if strings.Contains(string(page.Raw), "password") {
			t.Fatal("user list leaks password fields")
		}
	}
	if !listed {
		t.Fatalf("user %s not listed", name)
	}
	expectStatus(t, call(t, http.MethodGet, "/api/users/"+id, keyFor(t, store.RoleManager), nil), http.StatusOK)
	expectStatus(t, call(t, http.MethodPost, "/api/users", keyFor(t, store.RoleManager), map[string]any{"username": "m", "email": "m@x.io", "role": "viewer"}), http.StatusForbidden)

	expectStatus(t, call(t, http.MethodDelete, "/api/users/"+id, env.adminKey, nil), http.StatusNoContent)
	expectStatus(t, call(t, http.MethodGet, "/api/users/"+id, env.adminKey, nil), http.StatusNotFound)
}

func TestOwnPasswordChange(t *testing.T) {
	s := loginAs(t, store.RoleViewer)
	wrong := s.call(t, http.MethodPost, "/api/users/me/password", map[string]any{"current_password": "nope nope nope", "new_password": "a brand new passphrase"}, true)
	expectStatus(t, wrong, http.StatusUnprocessableEntity)
	ok := s.call(t, http.MethodPost, "/api/users/me/password", map[string]any{"current_password": testPassword, "new_password": "a brand new passphrase"}, true)
	expectStatus(t, ok, http.StatusOK)
	// Changing the password ends existing sessions, this one included.
	expectStatus(t, s.call(t, http.MethodGet, "/api/users/me", nil, false), http.StatusUnauthorized)
	r := doRequest(t, newBrowser(t), env.server.URL, http.MethodPost, "/login", "", map[string]any{"username": s.user, "password": "a brand new passphrase"}, nil)
	expectStatus(t, r, http.StatusOK)
}

// TestLastAdminIsProtected runs on a store of its own so that exactly one
// admin exists.
func TestLastAdminIsProtected(t *testing.T) {
	h := newIsolatedServer(t)
	ctx := context.Background()
	admin, err := h.store.UserByUsername(ctx, "admin")
	if err != nil {
		t.Fatal(err)
	}
	for name, body := range map[string]map[string]any{
		"demote":  {"role": "manager"},
		"disable": {"enabled": false},
	} {
		r := callURL(t, h.url, http.MethodPut, "/api/users/"+admin.ID, h.adminKey, body)
		expectStatus(t, r, http.StatusConflict)
		if r.errCode() != "last_admin" {
			t.Fatalf("%s last admin: %s", name, r.Raw)
		}
	}
	r := callURL(t, h.url, http.MethodDelete, "/api/users/"+admin.ID, h.adminKey, nil)
	expectStatus(t, r, http.StatusConflict)

	// With a second admin the first may step down.
	second := callURL(t, h.url, http.MethodPost, "/api/users", h.adminKey, map[string]any{"username": "second", "email": "second@corp.example", "role": "admin"})
	expectStatus(t, second, http.StatusCreated)
	expectStatus(t, callURL(t, h.url, http.MethodPut, "/api/users/"+second.data()["id"].(string), h.adminKey, map[string]any{"role": "viewer"}), http.StatusOK)
	expectStatus(t, callURL(t, h.url, http.MethodPut, "/api/users/"+admin.ID, h.adminKey, map[string]any{"role": "viewer"}), http.StatusConflict)
}
