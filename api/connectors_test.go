package api_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/vigil-soc/vigil/connectors"
	"github.com/vigil-soc/vigil/outbound"
	"github.com/vigil-soc/vigil/store"
)

// apiTestTicketing is a ticketing vendor registered for these tests; it
// calls a local peer that accepts one API token.
type apiTestTicketing struct{ cfg connectors.Config }

func (v apiTestTicketing) CreateTicket(context.Context, string, connectors.Ticket) (connectors.Result, error) {
	return connectors.Result{}, connectors.Permanentf("not used")
}

func (v apiTestTicketing) Test(ctx context.Context) error {
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, v.cfg.Settings["base_url"]+"/me", nil)
	req.Header.Set("X-Token", v.cfg.Secrets["token"])
	resp, err := v.cfg.HTTP.Do(req)
	if err != nil {
		return err
	}
	resp.Body.Close()
	if resp.StatusCode == http.StatusUnauthorized {
		return connectors.Permanentf("authentication failed: check the API token")
	}
	return nil
}

func init() {
	connectors.Register(connectors.Vendor{Type: "api-test-desk", Title: "API test desk", Kinds: []string{connectors.KindTicketing},
		Fields: []connectors.Field{{Name: "base_url", Required: true}, {Name: "token", Required: true, Secret: true}},
		New:    func(cfg connectors.Config) (any, error) { return apiTestTicketing{cfg}, nil }})
}

func TestConnectorConfigurationLifecycle(t *testing.T) {
	peer := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("X-Token") != "right" {
			w.WriteHeader(http.StatusUnauthorized)
		}
	}))
	defer peer.Close()
	admin, viewer := env.adminKey, keyFor(t, store.RoleViewer)
	allowLocalPeersForTest(t)

	body := map[string]any{"type": "api-test-desk", "settings": map[string]any{"base_url": peer.URL},
		"secrets": map[string]any{"token": "wrong"}}
	expectStatus(t, call(t, http.MethodPut, "/api/connectors/desk-1", viewer, body), http.StatusForbidden)
	bad := call(t, http.MethodPut, "/api/connectors/desk-1", admin, map[string]any{"type": "api-test-desk"})
	expectStatus(t, bad, http.StatusUnprocessableEntity)
	if d := bad.errDetails(); d["settings.base_url"] == nil || d["secrets.token"] == nil {
		t.Fatalf("details %v", d)
	}
	put := call(t, http.MethodPut, "/api/connectors/desk-1", admin, body)
	expectStatus(t, put, http.StatusCreated)
	t.Cleanup(func() { call(t, http.MethodDelete, "/api/connectors/desk-1", admin, nil) })
	if strings.Contains(string(put.Raw), "wrong") {
		t.Fatalf("secret echoed: %s", put.Raw)
	}

	list := call(t, http.MethodGet, "/api/connectors", viewer, nil)
	expectStatus(t, list, http.StatusOK)
	if strings.Contains(string(list.Raw), "wrong") || !strings.Contains(string(list.Raw), `"secrets_set":["token"]`) ||
		!strings.Contains(string(list.Raw), `"id":"simulated"`) {
		t.Fatalf("list %s", list.Raw)
	}
	health := call(t, http.MethodGet, "/api/connectors/health", viewer, nil)
	if !strings.Contains(string(health.Raw), `"name":"desk-1"`) {
		t.Fatalf("health %s", health.Raw)
	}

	test := call(t, http.MethodPost, "/api/connectors/desk-1/test", admin, nil)
	expectStatus(t, test, http.StatusOK)
	if test.Body["status"] != "unhealthy" || !strings.Contains(test.Body["message"].(string), "authentication failed") {
		t.Fatalf("test %s", test.Raw)
	}
	// Replacing only the secret keeps the settings valid.
	body["secrets"] = map[string]any{"token": "right"}
	expectStatus(t, call(t, http.MethodPut, "/api/connectors/desk-1", admin, body), http.StatusOK)
	if test = call(t, http.MethodPost, "/api/connectors/desk-1/test", admin, nil); test.Body["status"] != "healthy" {
		t.Fatalf("test %s", test.Raw)
	}

	// A second connector may not serve the same kind.
	expectStatus(t, call(t, http.MethodPut, "/api/connectors/desk-2", admin, body), http.StatusConflict)
	expectStatus(t, call(t, http.MethodDelete, "/api/connectors/desk-1", admin, nil), http.StatusNoContent)
	expectStatus(t, call(t, http.MethodDelete, "/api/connectors/desk-1", admin, nil), http.StatusNotFound)
	expectStatus(t, call(t, http.MethodPost, "/api/connectors/desk-1/test", admin, nil), http.StatusNotFound)
}

// allowLocalPeersForTest is allowLocalPeers undone when the test ends, so
// later tests see the outbound setting as they expect it.
func allowLocalPeersForTest(t *testing.T) {
	t.Helper()
	prev, err := env.store.GetSetting(context.Background(), outbound.Setting)
	allowLocalPeers(t)
	t.Cleanup(func() {
		value := map[string]any{"allow_http": false, "allow_hosts": []any{}}
		if err == nil {
			value = prev.Value.V
		}
		if _, err := env.store.PutSetting(context.Background(), outbound.Setting, value, "test"); err != nil {
			t.Error(err)
		}
	})
}
