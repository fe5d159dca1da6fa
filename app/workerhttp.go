package app

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"
	"go.temporal.io/sdk/client"

	"github.com/vigil-soc/vigil/store"
)

// serveWorkerHTTP serves a worker's operations endpoints on
// VIGIL_WORKER_HTTP_ADDR until ctx ends: /metrics (the SDK's worker
// metrics, LLM and intelligence metrics, Go runtime), /live, and /ready
// (200 while the database and Temporal answer).
func serveWorkerHTTP(ctx context.Context, cfg Config, st *store.Store, tc client.Client, log *slog.Logger) error {
	srv := &http.Server{
		Handler:           WorkerHandler(st, tc, prometheus.DefaultGatherer),
		ReadHeaderTimeout: 10 * time.Second,
	}
	ln, err := net.Listen("tcp", cfg.WorkerHTTPAddr)
	if err != nil {
		return fmt.Errorf("listen on VIGIL_WORKER_HTTP_ADDR %s: %w", cfg.WorkerHTTPAddr, err)
	}
	log.Info("worker probes and metrics listening", "url", "http://"+ln.Addr().String()+"/metrics")
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		return fmt.Errorf("worker http server: %w", err)
	case <-ctx.Done():
	}
	log.Info("shutting down worker")
	shutdownCtx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := srv.Shutdown(shutdownCtx); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return fmt.Errorf("stop worker http server: %w", err)
	}
	return nil
}

// WorkerHandler answers a worker's /metrics, /live and /ready.
func WorkerHandler(st *store.Store, tc client.Client, g prometheus.Gatherer) http.Handler {
	mux := http.NewServeMux()
	mux.Handle("GET /metrics", promhttp.HandlerFor(g, promhttp.HandlerOpts{}))
	mux.HandleFunc("GET /live", func(w http.ResponseWriter, _ *http.Request) {
		writeProbe(w, http.StatusOK, `{"status":"alive"}`)
	})
	mux.HandleFunc("GET /ready", func(w http.ResponseWriter, r *http.Request) {
		ctx, cancel := context.WithTimeout(r.Context(), 2*time.Second)
		defer cancel()
		if err := st.Ping(ctx); err != nil {
			writeProbe(w, http.StatusServiceUnavailable, `{"status":"not_ready","components":{"database":"unhealthy"}}`)
			return
		}
		if _, err := tc.CheckHealth(ctx, &client.CheckHealthRequest{}); err != nil {
			writeProbe(w, http.StatusServiceUnavailable, `{"status":"not_ready","components":{"temporal":"unhealthy"}}`)
			return
		}
		writeProbe(w, http.StatusOK, `{"status":"ready","components":{"database":"healthy","temporal":"healthy"}}`)
	})
	return mux
}

func writeProbe(w http.ResponseWriter, status int, body string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = w.Write([]byte(body))
}
