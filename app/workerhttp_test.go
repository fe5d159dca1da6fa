package app_test

import (
	"context"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/vigil-soc/vigil/app"
	"github.com/vigil-soc/vigil/internal/testenv"
)

// TestWorkerServesProbesAndSDKMetrics runs `vigil worker` alone: it
// answers /live and /ready on VIGIL_WORKER_HTTP_ADDR, and its /metrics
// carries the Temporal SDK's worker series (pollers, requests,
// schedule-to-start) so a stuck worker shows up.
func TestWorkerServesProbesAndSDKMetrics(t *testing.T) {
	ctx := context.Background()
	tmp, err := testenv.StartTemporal(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer tmp.Stop()
	cfg, err := app.ConfigFromEnv()
	if err != nil {
		t.Fatal(err)
	}
	cfg.TemporalAddress = tmp.Server.FrontendHostPort()
	cfg.WorkerHTTPAddr = freeAddr(t)
	w := startMode(t, cfg, app.ModeWorker)
	base := "http://" + cfg.WorkerHTTPAddr

	get := func(path string) (int, string) {
		res, err := http.Get(base + path)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		return res.StatusCode, string(b)
	}
	if code, _ := get("/live"); code != http.StatusOK {
		t.Fatalf("/live: %d", code)
	}
	var metrics string
	testenv.Eventually(t, 30*time.Second, func() bool {
		_, metrics = get("/metrics")
		return strings.Contains(metrics, "temporal_num_pollers") && strings.Contains(metrics, "temporal_request_total")
	}, "SDK worker metrics never appeared on the worker's /metrics")
	if !strings.Contains(metrics, `task_queue="vigil"`) {
		t.Fatalf("SDK metrics lack the task queue label")
	}
	w.stop(t)
	if _, err := http.Get(base + "/live"); err == nil {
		t.Fatal("worker still answering after shutdown")
	}
}
