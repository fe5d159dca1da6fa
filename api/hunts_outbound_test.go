package api_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/vigil-soc/vigil/hunt/huntest"
	"github.com/vigil-soc/vigil/store"
)

// putOutbound writes the outbound policy through the admin API.
func putOutbound(t *testing.T, policy map[string]any) {
	t.Helper()
	expectStatus(t, call(t, http.MethodPut, "/api/settings/outbound", env.adminKey, policy), http.StatusOK)
}

// keepOutbound puts the outbound policy back as it is now once the test
// has ended.
func keepOutbound(t *testing.T) {
	t.Helper()
	before := call(t, http.MethodGet, "/api/settings/outbound", env.adminKey, nil)
	expectStatus(t, before, http.StatusOK)
	t.Cleanup(func() { putOutbound(t, before.data()["value"].(map[string]any)) })
}

// An HTTP data source reaches only what the admin's outbound policy allows:
// refused at creation, at its test and in a run while the policy refuses
// it, and working once its host is allowed.
func TestHTTPDataSourceObeysTheOutboundPolicy(t *testing.T) {
	senior := keyFor(t, store.RoleSenior)
	peer := huntest.CustomPeer(t, "tok", []map[string]any{{"user_name": "a"}, {"user_name": "b"}})
	keepOutbound(t)
	putOutbound(t, map[string]any{"allow_http": false, "allow_hosts": []string{}})

	src := map[string]any{"name": "edr-api", "kind": "custom", "config": map[string]any{"url": peer.URL},
		"credentials": map[string]string{"token": "tok"}}
	r := call(t, http.MethodPost, "/api/v1/data-sources", env.adminKey, src)
	expectStatus(t, r, http.StatusUnprocessableEntity)
	if msg, _ := r.errDetails()["config.url"].(string); !strings.Contains(msg, "https") {
		t.Fatalf("refusal does not name config.url and the policy: %s", r.Raw)
	}

	putOutbound(t, map[string]any{"allow_http": true, "allow_hosts": []string{"127.0.0.1"}})
	expectStatus(t, call(t, http.MethodPost, "/api/v1/data-sources", env.adminKey, src), http.StatusCreated)
	r = call(t, http.MethodPost, "/api/v1/data-sources/edr-api/test", env.adminKey, nil)
	expectStatus(t, r, http.StatusOK)
	if r.data()["ok"] != true {
		t.Fatalf("test of an allowed source: %s", r.Raw)
	}
	h := call(t, http.MethodPost, "/api/v1/hunts", senior, map[string]any{"name": "edr failures", "hunt_type": "on_demand",
		"status": "active", "data_sources": []string{"edr-api"},
		"queries": []map[string]any{{"name": "failures", "query_type": "custom", "query": "failed logons", "severity": "high"}}})
	expectStatus(t, h, http.StatusCreated)
	id := h.data()["id"].(string)
	r = call(t, http.MethodPost, "/api/v1/hunts/"+id+"/execute", senior, nil)
	expectStatus(t, r, http.StatusOK)
	if r.data()["status"] != "completed" || r.data()["total_findings"] != float64(2) {
		t.Fatalf("run on an allowed source: %s", r.Raw)
	}

	// The admin takes the host back: the next test and run are refused
	// before any request leaves, and the run fails at once, naming why.
	putOutbound(t, map[string]any{"allow_http": true, "allow_hosts": []string{}})
	sent := len(peer.Requests())
	r = call(t, http.MethodPost, "/api/v1/data-sources/edr-api/test", env.adminKey, nil)
	if msg, _ := r.data()["error"].(string); r.data()["ok"] != false || !strings.Contains(msg, "is internal") {
		t.Fatalf("test of a refused source: %s", r.Raw)
	}
	r = call(t, http.MethodPost, "/api/v1/hunts/"+id+"/execute", senior, nil)
	expectStatus(t, r, http.StatusOK)
	if msg, _ := r.data()["error"].(string); r.data()["status"] != "failed" || !strings.Contains(msg, "outbound policy") {
		t.Fatalf("run on a refused source: %s", r.Raw)
	}
	if len(peer.Requests()) != sent {
		t.Fatal("a refused call reached the source")
	}
}
