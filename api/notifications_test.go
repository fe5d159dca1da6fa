package api_test

import (
	"context"
	"github.com/vigil-soc/vigil/outbound"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/vigil-soc/vigil/notify"
	"github.com/vigil-soc/vigil/store"
)

// allowLocalPeers lets notifications reach 127.0.0.1 over plain HTTP.
func allowLocalPeers(t *testing.T) {
	t.Helper()
	if _, err := env.store.PutSetting(context.Background(), outbound.Setting,
		map[string]any{"allow_http": true, "allow_hosts": []any{"127.0.0.1"}}, "test"); err != nil {
		t.Fatal(err)
	}
}

func TestNotificationChannelsAPI(t *testing.T) {
	manager, analyst := keyFor(t, store.RoleManager), keyFor(t, store.RoleAnalyst)
	var mu sync.Mutex
	var got []string
	peer := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		mu.Lock()
		got = append(got, r.URL.Path+" "+string(b))
		mu.Unlock()
		_, _ = io.WriteString(w, "ok")
	}))
	defer peer.Close()

	// Internal addresses are refused until an admin allows them.
	body := map[string]any{"name": "soc-chat-" + t.Name(), "channel_type": "chat_a",
		"config": map[string]any{"webhook_url": peer.URL + "/services/secret-path", "channel": "#soc"},
		"events": []string{"incident_created", "action_pending_approval"},
		"hours":  "08:00-18:00", "timezone": "Europe/Berlin", "days": []string{"mon", "tue"}, "dedup_window": "5m",
		"severities": []string{"high", "critical"}}
	r := call(t, http.MethodPost, "/api/notifications/channels", manager, body)
	expectStatus(t, r, http.StatusUnprocessableEntity)
	allowLocalPeers(t)

	expectStatus(t, call(t, http.MethodPost, "/api/notifications/channels", analyst, body), http.StatusForbidden)
	r = call(t, http.MethodPost, "/api/notifications/channels", manager, body)
	expectStatus(t, r, http.StatusCreated)
	ch := r.data()
	id, _ := ch["id"].(string)
	cfg, _ := ch["config"].(map[string]any)
	if cfg["webhook_url"] != notify.Mask || cfg["channel"] != "#soc" || ch["dedup_window"] != "5m0s" || ch["enabled"] != true {
		t.Fatalf("created channel: %v", ch)
	}
	if strings.Contains(string(r.Raw), "secret-path") {
		t.Fatal("the webhook URL was shown")
	}
	list := call(t, http.MethodGet, "/api/notifications/channels", analyst, nil)
	expectStatus(t, list, http.StatusOK)
	if strings.Contains(string(list.Raw), "secret-path") || !strings.Contains(string(list.Raw), id) {
		t.Fatalf("list: %s", list.Raw)
	}

	for field, bad := range map[string]any{"channel_type": "pager", "events": []string{"incident_exploded"},
		"hours": "25:00-26:00", "timezone": "Mars/Olympus", "days": []string{"someday"}, "dedup_window": "soon"} {
		b := map[string]any{field: bad}
		r := call(t, http.MethodPut, "/api/notifications/channels/"+id, manager, b)
		expectStatus(t, r, http.StatusUnprocessableEntity)
		if _, ok := r.errDetails()[field]; !ok {
			t.Errorf("%s: details %v", field, r.errDetails())
		}
	}
	// The masked value keeps the secret: the test message still arrives.
	r = call(t, http.MethodPut, "/api/notifications/channels/"+id, manager,
		map[string]any{"config": map[string]any{"webhook_url": notify.Mask, "channel": "#ir"}})
	expectStatus(t, r, http.StatusOK)
	r = call(t, http.MethodPost, "/api/notifications/test", manager, map[string]any{"channel_id": id, "message": "hello from the test"})
	expectStatus(t, r, http.StatusOK)
	if r.data()["status"] != "sent" || r.data()["provider_status"] != float64(200) {
		t.Fatalf("test answer: %v", r.data())
	}
	mu.Lock()
	if len(got) != 1 || !strings.HasPrefix(got[0], "/services/secret-path ") || !strings.Contains(got[0], "hello from the test") {
		t.Errorf("peer got %v", got)
	}
	mu.Unlock()
	expectStatus(t, call(t, http.MethodPost, "/api/notifications/test", analyst, map[string]any{"channel_id": id, "message": "x"}),
		http.StatusForbidden)
	expectStatus(t, call(t, http.MethodPost, "/api/notifications/test", manager, map[string]any{"channel_id": id}),
		http.StatusUnprocessableEntity)

	logs := call(t, http.MethodGet, "/api/notifications/deliveries?channel_id="+id+"&status=sent", analyst, nil)
	expectStatus(t, logs, http.StatusOK)
	if !strings.Contains(string(logs.Raw), `"event":"test"`) || !strings.Contains(string(logs.Raw), `"total":1`) {
		t.Errorf("delivery log: %s", logs.Raw)
	}
	expectStatus(t, call(t, http.MethodGet, "/api/notifications/deliveries?status=lost", analyst, nil), http.StatusUnprocessableEntity)

	expectStatus(t, call(t, http.MethodDelete, "/api/notifications/channels/"+id, analyst, nil), http.StatusForbidden)
	expectStatus(t, call(t, http.MethodDelete, "/api/notifications/channels/"+id, manager, nil), http.StatusNoContent)
	expectStatus(t, call(t, http.MethodGet, "/api/notifications/channels/"+id, analyst, nil), http.StatusNotFound)
}
