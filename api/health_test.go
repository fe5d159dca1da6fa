package api_test

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"go.temporal.io/sdk/client"

	"github.com/vigil-soc/vigil/api"
	"github.com/vigil-soc/vigil/internal/testenv"
)

func testServer(t *testing.T, h http.Handler) string {
	t.Helper()
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return srv.URL
}

func TestHealthEndpoints(t *testing.T) {
	expectStatus(t, call(t, http.MethodGet, "/live", "", nil), http.StatusOK)
	expectStatus(t, call(t, http.MethodGet, "/ready", "", nil), http.StatusOK)
	h := call(t, http.MethodGet, "/health", "", nil)
	expectStatus(t, h, http.StatusOK)
	if h.Body["status"] != "healthy" || h.Body["version"] != "test" {
		t.Fatalf("/health = %s", h.Raw)
	}
}

func TestReadyIs503WhenTemporalIsUnreachable(t *testing.T) {
	dead, err := client.NewLazyClient(client.Options{HostPort: "127.0.0.1:1", Logger: nil})
	if err != nil {
		t.Fatal(err)
	}
	defer dead.Close()
	base := testServer(t, newRouter(dead, 0))
	r := callURL(t, base, http.MethodGet, "/ready", "", nil)
	expectStatus(t, r, http.StatusServiceUnavailable)
	if r.Body["components"].(map[string]any)["temporal"] != "unhealthy" {
		t.Fatalf("/ready = %s", r.Raw)
	}
	expectStatus(t, callURL(t, base, http.MethodGet, "/live", "", nil), http.StatusOK)
	expectStatus(t, callURL(t, base, http.MethodGet, "/health", "", nil), http.StatusServiceUnavailable)
}

func TestReadyIs503WhenDatabaseIsUnreachable(t *testing.T) {
	st := testenv.OpenStore(t)
	base := testServer(t, api.NewRouter(api.Options{Store: st, Temporal: env.temporal, Log: testenv.Logger()}))
	expectStatus(t, callURL(t, base, http.MethodGet, "/ready", "", nil), http.StatusOK)
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}
	r := callURL(t, base, http.MethodGet, "/ready", "", nil)
	expectStatus(t, r, http.StatusServiceUnavailable)
	if r.Body["components"].(map[string]any)["database"] != "unhealthy" {
		t.Fatalf("/ready = %s", r.Raw)
	}
}

func TestMetricsUseRouteTemplates(t *testing.T) {
	key := keyFor(t, "viewer")
	call(t, http.MethodGet, "/api/incidents/6f1c1f7e-0000-4000-8000-0000000000aa", key, nil)
	call(t, http.MethodGet, "/api/no/such/route/12345", key, nil)
	r := call(t, http.MethodGet, "/metrics", "", nil)
	expectStatus(t, r, http.StatusOK)
	text := string(r.Raw)
	for _, want := range []string{
		`http_requests_total{method="GET",path="/api/incidents/:id",status="404"}`,
		`http_requests_total{method="GET",path="unmatched",status="404"}`,
		"http_request_duration_seconds_bucket",
		"http_requests_in_flight",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("/metrics lacks %s", want)
		}
	}
	if strings.Contains(text, "6f1c1f7e") || strings.Contains(text, "12345") {
		t.Error("/metrics leaks raw URLs into labels")
	}
}
