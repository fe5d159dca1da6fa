package api_test

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/vigil-soc/vigil/store"
)

// TestEveryRouteHasAnAccessRule fails when a route is added to the engine
// without going through the access table.
func TestEveryRouteHasAnAccessRule(t *testing.T) {
	rules := map[string]bool{}
	for _, r := range env.router.Access {
		rules[r.Method+" "+r.Path] = true
	}
	public := map[string]bool{"GET /live": true, "GET /ready": true, "GET /health": true, "GET /metrics": true}
	for _, r := range env.router.Routes() {
		key := r.Method + " " + r.Path
		if public[key] {
			continue
		}
		if !strings.HasPrefix(r.Path, "/api/") || !rules[key] {
			t.Errorf("route %s has no access rule", key)
		}
	}
}

// TestRoutesByRole walks every /api route with every role and with bad
// credentials: below the route's role is 403, at or above is anything but
// 401/403, and bad credentials are always 401.
func TestRoutesByRole(t *testing.T) {
	ctx := context.Background()
	keys := map[string]string{}
	for _, role := range store.Roles {
		keys[role] = keyFor(t, role)
	}
	u, err := env.store.CreateUser(ctx, store.NewUser{Username: "revoked-" + t.Name(), Email: "revoked-route@example.com", Role: store.RoleAdmin})
	if err != nil {
		t.Fatal(err)
	}
	k, revoked, _ := env.store.CreateAPIKey(ctx, u.ID, "r", nil, nil)
	if err := env.store.RevokeAPIKey(ctx, k.ID); err != nil {
		t.Fatal(err)
	}
	past := time.Now().Add(-time.Second)
	_, expired, _ := env.store.CreateAPIKey(ctx, u.ID, "e", nil, &past)
	bad := map[string]string{"none": "", "unknown": "vgl_not-a-real-key", "revoked": revoked, "expired": expired}

	incident := createIncident(t, keys["analyst"], map[string]any{"incident_type": "rbac", "source": "test", "severity": "low"})
	id := incident["id"].(string)
	for _, route := range env.router.Access {
		path := strings.ReplaceAll(route.Path, ":id", id)
		for name, key := range bad {
			r := call(t, route.Method, path, key, "{}")
			if r.Status != http.StatusUnauthorized || r.errCode() != "unauthorized" {
				t.Errorf("%s %s with %s credentials: %d %s, want 401", route.Method, route.Path, name, r.Status, r.Raw)
			}
		}
		for _, role := range store.Roles {
			// Deletes go last per route so the incident survives the walk.
			if route.Method == http.MethodDelete && role == store.RoleAdmin {
				continue
			}
			r := call(t, route.Method, path, keys[role], "{}")
			allowed := store.RoleRank(role) >= store.RoleRank(route.MinRole)
			switch {
			case allowed && (r.Status == http.StatusUnauthorized || r.Status == http.StatusForbidden):
				t.Errorf("%s %s as %s: %d, want allowed", route.Method, route.Path, role, r.Status)
			case !allowed && r.Status != http.StatusForbidden:
				t.Errorf("%s %s as %s: %d, want 403", route.Method, route.Path, role, r.Status)
			}
		}
	}
	r := call(t, http.MethodDelete, "/api/incidents/"+id, keys[store.RoleAdmin], nil)
	expectStatus(t, r, http.StatusNoContent)
}

func TestBearerSchemeIsRequired(t *testing.T) {
	req, _ := http.NewRequest(http.MethodGet, env.server.URL+"/api/incidents", nil)
	req.Header.Set("Authorization", "Basic "+env.adminKey)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusUnauthorized || res.Header.Get("WWW-Authenticate") == "" {
		t.Fatalf("Basic scheme: %d, want 401 with WWW-Authenticate", res.StatusCode)
	}
}

func TestDisablingAUserStopsTheirKeyAtOnce(t *testing.T) {
	ctx := context.Background()
	u, err := env.store.CreateUser(ctx, store.NewUser{Username: "to-disable", Email: "to-disable@example.com", Role: store.RoleAnalyst})
	if err != nil {
		t.Fatal(err)
	}
	_, key, _ := env.store.CreateAPIKey(ctx, u.ID, "k", nil, nil)
	expectStatus(t, call(t, http.MethodGet, "/api/incidents", key, nil), http.StatusOK)
	env.store.DB().Model(&store.User{}).Where("id = ?", u.ID).Update("enabled", false)
	expectStatus(t, call(t, http.MethodGet, "/api/incidents", key, nil), http.StatusUnauthorized)
}
