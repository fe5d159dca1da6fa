package api_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/vigil-soc/vigil/store"
)

// mintKey creates a key through the API with the given credential.
func mintKey(t *testing.T, key string, body map[string]any) response {
	t.Helper()
	if _, ok := body["name"]; !ok {
		body["name"] = "minted"
	}
	return call(t, http.MethodPost, "/api/api-keys", key, body)
}

// TestScopedKeyCannotMintAWiderKey replays the escalation: a key limited to
// read and write asked for a key without scopes (which means everything the
// role allows) and used it to request a response action.
func TestScopedKeyCannotMintAWiderKey(t *testing.T) {
	owner := keyFor(t, store.RoleAnalyst)
	r := mintKey(t, owner, map[string]any{"scopes": []string{"read", "write"}})
	expectStatus(t, r, http.StatusCreated)
	scoped := r.data()["key"].(string)
	inc := createIncident(t, owner, map[string]any{"incident_type": "escalation", "source": "test", "severity": "low"})

	// The attack: no scopes, then a response action with the new key.
	r = mintKey(t, scoped, map[string]any{})
	if k, _ := r.data()["key"].(string); k != "" {
		act := call(t, http.MethodPost, "/api/incidents/"+inc["id"].(string)+"/actions", k,
			map[string]any{"action": "create_ticket", "parameters": map[string]any{"title": "escalated"}})
		t.Fatalf("a read/write key minted an unscoped key (%d), which requested an action (%d)", r.Status, act.Status)
	}
	expectStatus(t, r, http.StatusForbidden)
	if r.errCode() != "scope_escalation" {
		t.Fatalf("unscoped key from a scoped one: %s", r.Raw)
	}

	cases := []struct {
		name   string
		scopes []string
		want   int
	}{
		{"one scope beyond", []string{"read", "actions:execute"}, http.StatusForbidden},
		{"approve", []string{"actions:approve"}, http.StatusForbidden},
		{"same scopes", []string{"write", "read"}, http.StatusCreated},
		{"narrower", []string{"read"}, http.StatusCreated},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := mintKey(t, scoped, map[string]any{"scopes": tc.scopes})
			expectStatus(t, r, tc.want)
			if tc.want == http.StatusForbidden && r.errCode() != "scope_escalation" {
				t.Fatalf("code %q: %s", r.errCode(), r.Raw)
			}
		})
	}

	// A key with the admin scope holds every scope but is still scoped.
	adminScoped := mintKey(t, env.adminKey, map[string]any{"scopes": []string{"admin"}}).data()["key"].(string)
	expectStatus(t, mintKey(t, adminScoped, map[string]any{"scopes": []string{"read", "actions:execute"}}), http.StatusCreated)
	expectStatus(t, mintKey(t, adminScoped, map[string]any{}), http.StatusForbidden)
	// An admin's narrow key cannot mint wide keys for someone else either.
	adminRead := mintKey(t, env.adminKey, map[string]any{"scopes": []string{"read", "write"}}).data()["key"].(string)
	me := call(t, http.MethodGet, "/api/users/me", owner, nil).data()
	r = mintKey(t, adminRead, map[string]any{"user_id": me["id"], "scopes": []string{"actions:execute"}})
	expectStatus(t, r, http.StatusForbidden)
}

func TestUnscopedKeysComeFromSessionsAndUnscopedKeys(t *testing.T) {
	s := loginAs(t, store.RoleAnalyst)
	r := s.call(t, http.MethodPost, "/api/api-keys", map[string]any{"name": "from session"}, true)
	expectStatus(t, r, http.StatusCreated)
	fromSession := r.data()["key"].(string)
	r = mintKey(t, fromSession, map[string]any{})
	expectStatus(t, r, http.StatusCreated)
	if scopes := r.data()["scopes"].([]any); len(scopes) != 0 {
		t.Fatalf("unscoped key has scopes %v", scopes)
	}
}

// TestExpiringKeyCannotOutliveItself stops a short-lived key from renewing
// itself into a permanent one.
func TestExpiringKeyCannotOutliveItself(t *testing.T) {
	owner := keyFor(t, store.RoleAnalyst)
	expires := time.Now().Add(time.Hour).UTC().Truncate(time.Second)
	r := mintKey(t, owner, map[string]any{"expires_at": expires.Format(time.RFC3339)})
	expectStatus(t, r, http.StatusCreated)
	short := r.data()["key"].(string)
	for name, body := range map[string]map[string]any{
		"no expiry":    {},
		"later expiry": {"expires_at": expires.Add(time.Minute).Format(time.RFC3339)},
	} {
		r := mintKey(t, short, body)
		expectStatus(t, r, http.StatusUnprocessableEntity)
		if _, ok := r.errDetails()["expires_at"]; !ok {
			t.Errorf("%s: details do not name expires_at: %s", name, r.Raw)
		}
	}
	expectStatus(t, mintKey(t, short, map[string]any{"expires_at": expires.Format(time.RFC3339)}), http.StatusCreated)
}
