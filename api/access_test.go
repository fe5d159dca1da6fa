package api_test

import (
	"context"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/vigil-soc/vigil/api"
	"github.com/vigil-soc/vigil/store"
)

// publicRoutes answer without credentials by design.
var publicRoutes = map[string]bool{
	"GET /live": true, "GET /ready": true, "GET /health": true, "GET /health/detailed": true, "GET /metrics": true,
	// CORS preflights carry no credentials; the POSTs they precede need them.
	"OPTIONS /api/codec/encode": true, "OPTIONS /api/codec/decode": true,
	"OPTIONS /api/v1/codec/encode": true, "OPTIONS /api/v1/codec/decode": true,
	"OPTIONS /codec/encode": true, "OPTIONS /codec/decode": true,
	"GET /login": true, "POST /login": true, "POST /logout": true,
	"POST /api/webhooks/:source": true, "POST /api/v1/webhooks/:source": true, // signed by the sender instead
	// The url_token intake: the token in the path is the credential.
	"POST /api/webhooks/:source/:token": true, "POST /api/v1/webhooks/:source/:token": true,
	"GET /api/openapi.json": true, "GET /api/v1/openapi.json": true,
	// Signed by Slack; the decision is taken as the mapped user, with the
	// approve and reject routes' own checks.
	"POST /api/integrations/slack/interactions": true,
}

// TestEveryRouteHasAnAccessRule fails when a route is added to the engine
// without going through the access table.
func TestEveryRouteHasAnAccessRule(t *testing.T) {
	rules := map[string]bool{}
	for _, r := range env.router.Access {
		rules[r.Method+" "+r.Path] = true
	}
	for _, r := range env.router.Routes() {
		key := r.Method + " " + r.Path
		if publicRoutes[key] {
			continue
		}
		// /api/v1/... serves the /api route of the same name, and the
		// codec answers at /codec/... as at /api/codec/....
		path := strings.Replace(r.Path, "/api/v1/", "/api/", 1)
		if strings.HasPrefix(path, "/codec/") {
			path = "/api" + path
		}
		alias := r.Method + " " + path
		if !strings.HasPrefix(path, "/api/") || !(rules[key] || rules[alias]) {
			t.Errorf("route %s has no access rule", key)
		}
	}
}

// credential is one way of calling the API in the route walk.
type credential struct {
	name    string
	key     string
	role    string // "" for credentials that must be refused outright
	session *session
}

// routeWalkCredentials builds every kind of caller the route walk uses.
func routeWalkCredentials(t *testing.T) []credential {
	ctx := context.Background()
	var creds []credential
	for _, role := range store.Roles {
		creds = append(creds, credential{name: role, key: keyFor(t, role), role: role})
	}
	mk := func(name, role string) *store.User {
		u, err := env.store.CreateUser(ctx, store.NewUser{Username: name + "-" + t.Name(), Email: name + "-walk@example.com", Role: role})
		if err != nil {
			t.Fatal(err)
		}
		return u
	}
	admin := mk("walk-admin", store.RoleAdmin)
	k, revoked, _ := env.store.CreateAPIKey(ctx, admin.ID, "revoked", nil, nil)
	if err := env.store.RevokeAPIKey(ctx, k.ID); err != nil {
		t.Fatal(err)
	}
	past := time.Now().Add(-time.Second)
	_, expired, _ := env.store.CreateAPIKey(ctx, admin.ID, "expired", nil, &past)
	disabled := mk("walk-disabled", store.RoleAdmin)
	_, disabledKey, _ := env.store.CreateAPIKey(ctx, disabled.ID, "k", nil, nil)
	env.store.DB().Model(&store.User{}).Where("id = ?", disabled.ID).Update("enabled", false)
	creds = append(creds,
		credential{name: "no credentials"},
		credential{name: "unknown key", key: "vgl_not-a-real-key"},
		credential{name: "revoked key", key: revoked},
		credential{name: "expired key", key: expired},
		credential{name: "disabled user", key: disabledKey},
		credential{name: "admin session", role: store.RoleAdmin, session: loginAs(t, store.RoleAdmin)},
	)
	return creds
}

// TestRoutesByRole walks every /api route with every role, every kind of
// bad credential, a browser session and keys whose scopes exclude the
// route: refused credentials get 401, a role below the route's 403, a
// missing scope 403 insufficient_scope, everything else gets through.
func TestRoutesByRole(t *testing.T) {
	creds := routeWalkCredentials(t)
	incident := createIncident(t, keyFor(t, "analyst"), map[string]any{"incident_type": "rbac", "source": "test", "severity": "low"})
	id := incident["id"].(string)
	for _, route := range env.router.Access {
		path := strings.NewReplacer(":id", id, ":key", "general").Replace(route.Path)
		for _, cr := range creds {
			// Deleting with full rights would remove the fixtures; the
			// admin-only deletes are exercised in their own tests.
			if route.Method == http.MethodDelete && cr.role == store.RoleAdmin {
				continue
			}
			var r response
			if cr.session != nil {
				r = cr.session.call(t, route.Method, path, "{}", true)
			} else {
				r = call(t, route.Method, path, cr.key, "{}")
			}
			switch {
			case cr.role == "":
				if r.Status != http.StatusUnauthorized || r.errCode() != "unauthorized" {
					t.Errorf("%s %s with %s: %d %s, want 401", route.Method, route.Path, cr.name, r.Status, r.Raw)
				}
			case store.RoleRank(cr.role) < store.RoleRank(route.MinRole):
				if r.Status != http.StatusForbidden || r.errCode() != "forbidden" {
					t.Errorf("%s %s as %s: %d, want 403", route.Method, route.Path, cr.name, r.Status)
				}
			case r.Status == http.StatusUnauthorized || r.Status == http.StatusForbidden:
				t.Errorf("%s %s as %s: %d %s, want it allowed", route.Method, route.Path, cr.name, r.Status, r.Raw)
			}
		}
		// A key of an admin whose scopes leave this route's scope out.
		narrow := scopedKey(t, store.RoleAdmin, scopesWithout(route.Scope))
		r := call(t, route.Method, path, narrow, "{}")
		if r.Status != http.StatusForbidden || r.errCode() != "insufficient_scope" {
			t.Errorf("%s %s with a key lacking %s: %d %s, want 403 insufficient_scope", route.Method, route.Path, route.Scope, r.Status, r.Raw)
		}
	}
}

// scopesWithout lists every scope but need (and admin, which implies all).
func scopesWithout(need string) []string {
	var out []string
	for _, s := range api.Scopes {
		if s != need && s != api.ScopeAdmin {
			out = append(out, s)
		}
	}
	return out
}

func scopedKey(t *testing.T, role string, scopes []string) string {
	t.Helper()
	u, err := env.store.CreateUser(context.Background(), store.NewUser{
		Username: "scoped-" + randomSuffix(), Email: "scoped-" + randomSuffix() + "@example.com", Role: role,
	})
	if err != nil {
		t.Fatal(err)
	}
	_, key, err := env.store.CreateAPIKey(context.Background(), u.ID, "scoped", scopes, nil)
	if err != nil {
		t.Fatal(err)
	}
	return key
}

func TestScopesNarrowButNeverWiden(t *testing.T) {
	readOnly := scopedKey(t, store.RoleAnalyst, []string{api.ScopeRead})
	expectStatus(t, call(t, http.MethodGet, "/api/incidents", readOnly, nil), http.StatusOK)
	r := call(t, http.MethodPost, "/api/incidents", readOnly, map[string]any{"incident_type": "x", "source": "y", "severity": "low"})
	expectStatus(t, r, http.StatusForbidden)
	if r.errCode() != "insufficient_scope" {
		t.Fatalf("code %q", r.errCode())
	}
	// An admin scope stored on an analyst's key (only possible by hand)
	// still cannot reach admin routes.
	widened := scopedKey(t, store.RoleAnalyst, []string{api.ScopeAdmin})
	expectStatus(t, call(t, http.MethodGet, "/api/audit", widened, nil), http.StatusForbidden)
	if !slices.Contains(api.RoleScopes(store.RoleViewer), api.ScopeRead) || slices.Contains(api.RoleScopes(store.RoleViewer), api.ScopeWrite) {
		t.Fatal("viewer scopes wrong")
	}
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
