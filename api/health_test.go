package api_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

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
	// Probes are cached briefly, so the outage shows within a few seconds.
	var r response
	testenv.Eventually(t, 10*time.Second, func() bool {
		r = callURL(t, base, http.MethodGet, "/ready", "", nil)
		return r.Status == http.StatusServiceUnavailable
	}, "/ready still answers %d after the database closed", r.Status)
	if r.Body["components"].(map[string]any)["database"] != "unhealthy" {
		t.Fatalf("/ready = %s", r.Raw)
	}
}

// countingTemporal counts the health checks that reach Temporal.
type countingTemporal struct {
	client.Client
	checks atomic.Int64
}

func (c *countingTemporal) CheckHealth(ctx context.Context, req *client.CheckHealthRequest) (*client.CheckHealthResponse, error) {
	c.checks.Add(1)
	return c.Client.CheckHealth(ctx, req)
}

// A flood of unauthenticated health checks must not turn into a ping of
// the database and Temporal per request.
func TestHealthProbesAreCached(t *testing.T) {
	tc := &countingTemporal{Client: env.temporal}
	base := testServer(t, api.NewRouter(api.Options{Store: env.store, Temporal: tc, Log: testenv.Logger(), Version: "test"}))
	const workers, perWorker = 4, 25
	start := time.Now()
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			for i := range perWorker {
				path := "/health"
				if (w+i)%2 == 0 {
					path = "/ready"
				}
				expectStatus(t, callURL(t, base, http.MethodGet, path, "", nil), http.StatusOK)
			}
		})
	}
	wg.Wait()
	// One probe per second at most, plus the one the first call made.
	allowed := 2 + int64(time.Since(start)/time.Second)
	if n := tc.checks.Load(); n > allowed || n == 0 {
		t.Errorf("%d calls made %d Temporal health checks, want 1 to %d", workers*perWorker, n, allowed)
	}
	metrics := string(callURL(t, base, http.MethodGet, "/metrics", "", nil).Raw)
	for _, component := range []string{"database", "temporal"} {
		n := probeCount(t, metrics, component)
		if n > allowed || n == 0 {
			t.Errorf("%d calls probed the %s %d times, want 1 to %d", workers*perWorker, component, n, allowed)
		}
	}
}

func probeCount(t *testing.T, metrics, component string) int64 {
	t.Helper()
	prefix := `health_probes_total{component="` + component + `"} `
	for _, line := range strings.Split(metrics, "\n") {
		if rest, ok := strings.CutPrefix(line, prefix); ok {
			n, err := strconv.ParseFloat(rest, 64)
			if err != nil {
				t.Fatal(err)
			}
			return int64(n)
		}
	}
	return 0
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
