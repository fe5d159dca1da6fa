package api_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/vigil-soc/vigil/api"
	"github.com/vigil-soc/vigil/app"
	"github.com/vigil-soc/vigil/internal/testenv"
	"github.com/vigil-soc/vigil/settings"
)

// TestRateLimitSharedAcrossAPIs: two API processes (routers) counting in
// one Redis hold a principal to one read limit between them, where
// per-process counters would let it through twice.
func TestRateLimitSharedAcrossAPIs(t *testing.T) {
	url := os.Getenv("VIGIL_TEST_REDIS_URL")
	if url == "" {
		url = "redis://127.0.0.1:6379/0"
	}
	cfg := app.Config{RedisURL: url, RedisPrefix: "vigil-test:" + t.Name() + ":" + time.Now().Format("150405.000000")}
	newAPI := func() *httptest.Server {
		shared, closeShared, err := app.RateLimitStore(context.Background(), cfg)
		if err != nil {
			if os.Getenv("VIGIL_REQUIRE_REDIS") != "" {
				t.Fatal(err)
			}
			t.Skipf("no Redis: %v", err)
		}
		t.Cleanup(closeShared)
		reg := prometheus.NewRegistry()
		srv := httptest.NewServer(api.NewRouter(api.Options{Store: env.store, Temporal: env.temporal,
			Log: testenv.Logger(), Version: "test", Connectors: app.NewConnectors(env.store),
			Registerer: reg, Gatherer: reg, RateLimitStore: shared}))
		t.Cleanup(srv.Close)
		return srv
	}
	a, b := newAPI(), newAPI()
	key := keyFor(t, "viewer")
	limit := settings.DefaultRateLimits().ReadPerMinute
	allowed := 0
	for i := 0; i < 2*limit; i++ {
		base := a.URL
		if i%2 == 1 {
			base = b.URL
		}
		res := doRequest(t, http.DefaultClient, base, http.MethodGet, "/api/users/me", key, nil, nil)
		switch res.Status {
		case http.StatusOK:
			allowed++
		case http.StatusTooManyRequests:
		default:
			t.Fatalf("request %d: %d %s", i, res.Status, res.Raw)
		}
	}
	if allowed != limit {
		t.Fatalf("%d reads allowed across two APIs, want the one limit %d", allowed, limit)
	}
}
