package api_test

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/vigil-soc/vigil/notify"
	"github.com/vigil-soc/vigil/store"
)

// slackAPI is a local users.info: it checks the bot token and answers the
// profile e-mail of the users it knows, as Slack does.
func slackAPI(t *testing.T, token string, emails map[string]string) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		if r.URL.Path != "/api/users.info" || r.Header.Get("Authorization") != "Bearer "+token {
			_, _ = io.WriteString(w, `{"ok":false,"error":"invalid_auth"}`)
			return
		}
		email, ok := emails[r.URL.Query().Get("user")]
		if !ok {
			_, _ = io.WriteString(w, `{"ok":false,"error":"user_not_found"}`)
			return
		}
		_ = json.NewEncoder(w).Encode(map[string]any{"ok": true, "user": map[string]any{
			"id": r.URL.Query().Get("user"), "profile": map[string]any{"email": email}}})
	}))
	t.Cleanup(srv.Close)
	return srv
}

func emailOf(t *testing.T, key string) string {
	r := call(t, http.MethodGet, "/api/users/me", key, nil)
	expectStatus(t, r, http.StatusOK)
	return r.data()["email"].(string)
}

func TestSlackInteractions(t *testing.T) {
	allowLocalPeers(t)
	requester, approver, manager := keyFor(t, store.RoleSenior), keyFor(t, store.RoleSenior), keyFor(t, store.RoleManager)
	api := slackAPI(t, "xoxb-test", map[string]string{"U_SELF": emailOf(t, requester), "U_OK": emailOf(t, approver),
		"U_GHOST": "ghost@nowhere.example"})
	var mu sync.Mutex
	var updates []string
	responses := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		mu.Lock()
		updates = append(updates, string(b))
		mu.Unlock()
	}))
	defer responses.Close()
	const secret = "slack-signing-secret"
	r := call(t, http.MethodPost, "/api/notifications/channels", manager, map[string]any{
		"name": "slack-approvals-" + t.Name(), "channel_type": "chat_a", "events": []string{"action_pending_approval"},
		"config": map[string]any{"webhook_url": responses.URL + "/hook", "signing_secret": secret, "bot_token": "xoxb-test",
			"api_url": api.URL + "/api"}})
	expectStatus(t, r, http.StatusCreated)
	defer call(t, http.MethodDelete, "/api/notifications/channels/"+r.data()["id"].(string), manager, nil)

	incID := newTestIncident(t, requester)
	r = call(t, http.MethodPost, "/api/incidents/"+incID+"/actions", requester,
		map[string]any{"action": "isolate_host", "parameters": map[string]any{"host_id": "ws-" + randomSuffix()}})
	expectStatus(t, r, http.StatusCreated)
	actionID := r.data()["action_id"].(string)

	press := func(user, decision string, ts time.Time, sign string) response {
		payload, _ := json.Marshal(map[string]any{"type": "block_actions", "user": map[string]any{"id": user},
			"response_url": responses.URL + "/respond",
			"actions":      []any{map[string]any{"action_id": decision, "value": actionID, "type": "button"}}})
		body := "payload=" + url.QueryEscape(string(payload))
		stamp := strconv.FormatInt(ts.Unix(), 10)
		return doRequest(t, http.DefaultClient, env.server.URL, http.MethodPost, "/api/integrations/slack/interactions", "",
			body, map[string]string{"Content-Type": "application/x-www-form-urlencoded",
				"X-Slack-Request-Timestamp": stamp, "X-Slack-Signature": notify.SlackSignature(sign, stamp, []byte(body))})
	}
	cases := []struct {
		name, user, secret string
		ts                 time.Time
		status             int
		code               string
	}{
		{"bad signature", "U_OK", "wrong-secret", time.Now(), http.StatusUnauthorized, "invalid_signature"},
		{"old timestamp", "U_OK", secret, time.Now().Add(-10 * time.Minute), http.StatusUnauthorized, "timestamp_expired"},
		{"unknown slack user", "U_NOBODY", secret, time.Now(), http.StatusForbidden, "unknown_user"},
		{"no vigil user", "U_GHOST", secret, time.Now(), http.StatusForbidden, "unknown_user"},
		{"self approval", "U_SELF", secret, time.Now(), http.StatusForbidden, "self_approval_forbidden"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := press(tc.user, "approve", tc.ts, tc.secret)
			expectStatus(t, r, tc.status)
			if r.errCode() != tc.code {
				t.Errorf("code %q, want %q: %s", r.errCode(), tc.code, r.Raw)
			}
		})
	}
	r = press("U_OK", "approve", time.Now(), secret)
	expectStatus(t, r, http.StatusOK)
	if r.data()["status"] != "completed" {
		t.Fatalf("approval from Slack: %s", r.Raw)
	}
	again := press("U_OK", "reject", time.Now(), secret)
	expectStatus(t, again, http.StatusConflict)
	mu.Lock()
	defer mu.Unlock()
	joined := strings.Join(updates, "\n")
	if !strings.Contains(joined, "completed (approved by") || !strings.Contains(joined, `"replace_original":true`) {
		t.Errorf("message updates: %s", joined)
	}
}
