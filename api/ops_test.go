package api_test

import (
	"bytes"
	"context"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/vigil-soc/vigil/api"
	"github.com/vigil-soc/vigil/app"
	"github.com/vigil-soc/vigil/internal/reqid"
)

// syncBuffer is a log sink safe for the server's goroutines.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// loggedServer is a router on its own registry whose log lines are kept.
func loggedServer(t *testing.T) (*httptest.Server, *syncBuffer) {
	t.Helper()
	logs := &syncBuffer{}
	reg := prometheus.NewRegistry()
	r := api.NewRouter(api.Options{
		Store: env.store, Temporal: env.temporal, Settings: env.settings, Version: "test",
		Log:        slog.New(reqid.Handler{Handler: slog.NewJSONHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug})}),
		Connectors: app.NewConnectors(env.store), Secrets: env.box, Dispatcher: env.dispatcher,
		Registerer: reg, Gatherer: reg,
	})
	srv := httptest.NewUnstartedServer(r)
	srv.Config.ConnState = r.ConnState
	srv.Start()
	t.Cleanup(srv.Close)
	return srv, logs
}

// TestRequestIDAccessLogAndAudit: a sane X-Request-ID comes back and
// lands in the access line (with route template, status, latency and
// principal) and in the audit entry; an insane one is replaced.
func TestRequestIDAccessLogAndAudit(t *testing.T) {
	srv, logs := loggedServer(t)
	res := doRequest(t, http.DefaultClient, srv.URL, http.MethodPost, "/api/incidents", env.adminKey,
		map[string]any{"incident_type": "malware", "source": "edr", "severity": "low", "raw_data": map[string]any{}},
		map[string]string{"X-Request-ID": "req-ops-0001"})
	expectStatus(t, res, http.StatusCreated)
	if got := res.Header.Get("X-Request-ID"); got != "req-ops-0001" {
		t.Fatalf("X-Request-ID answered %q", got)
	}
	var line string
	for _, l := range strings.Split(logs.String(), "\n") {
		if strings.Contains(l, `"msg":"http request"`) && strings.Contains(l, `"request_id":"req-ops-0001"`) {
			line = l
		}
	}
	for _, want := range []string{`"route":"/api/incidents"`, `"status":201`, `"latency_ms":`, `"principal":"key:`} {
		if !strings.Contains(line, want) {
			t.Fatalf("access line %q lacks %s", line, want)
		}
	}
	audit := call(t, http.MethodGet, "/api/audit?action=incident.create&per_page=100", env.adminKey, nil)
	if !strings.Contains(string(audit.Raw), `"request_id":"req-ops-0001"`) {
		t.Fatalf("audit entry lacks the request id: %.500s", audit.Raw)
	}

	bad := doRequest(t, http.DefaultClient, srv.URL, http.MethodGet, "/live", "", nil,
		map[string]string{"X-Request-ID": "has spaces and \"quotes\""})
	if id := bad.Header.Get("X-Request-ID"); id == "" || strings.Contains(id, " ") {
		t.Fatalf("insane request id echoed or none generated: %q", id)
	}
}

// TestHealthDetailedAndOperationsMetrics: every component is reported with
// status and latency; the JSON metrics and every SPEC metric name exist.
func TestHealthDetailedAndOperationsMetrics(t *testing.T) {
	srv, _ := loggedServer(t)
	createIncident(t, env.adminKey, map[string]any{"incident_type": "malware", "source": "edr", "severity": "high", "raw_data": map[string]any{}})

	res := doRequest(t, http.DefaultClient, srv.URL, http.MethodGet, "/health/detailed", "", nil, nil)
	expectStatus(t, res, http.StatusOK)
	comps, _ := res.Body["components"].(map[string]any)
	for _, name := range []string{"database", "temporal", "llm", "connectors", "notifications", "kill_switch"} {
		c, ok := comps[name].(map[string]any)
		if !ok || c["status"] == nil || c["latency_ms"] == nil {
			t.Fatalf("component %s missing or incomplete: %v", name, comps[name])
		}
	}
	if comps["database"].(map[string]any)["status"] != "healthy" || comps["notifications"].(map[string]any)["status"] != "not_configured" {
		t.Fatalf("components: %v", comps)
	}
	if s := res.Body["status"]; s != "healthy" && s != "degraded" && s != "halted" {
		t.Fatalf("status %v", s)
	}

	m := doRequest(t, http.DefaultClient, srv.URL, http.MethodGet, "/api/metrics", env.adminKey, nil, nil)
	expectStatus(t, m, http.StatusOK)
	d := m.data()
	for _, k := range []string{"incidents", "mean_time_to_triage_seconds", "pending_approvals", "actions", "automation_rate", "intake_queue_depth"} {
		if _, ok := d[k]; !ok {
			t.Fatalf("/api/metrics lacks %s: %v", k, d)
		}
	}
	if inc := d["incidents"].(map[string]any); inc["total"].(float64) < 1 || inc["by_severity"].(map[string]any)["high"] == nil {
		t.Fatalf("incident counts: %v", inc)
	}
	expectStatus(t, doRequest(t, http.DefaultClient, srv.URL, http.MethodGet, "/api/metrics", "", nil, nil), http.StatusUnauthorized)

	var text string
	deadline := time.Now().Add(10 * time.Second)
	for {
		text = string(doRequest(t, http.DefaultClient, srv.URL, http.MethodGet, "/metrics", "", nil, nil).Raw)
		if strings.Contains(text, "http_connections_active 1") || time.Now().After(deadline) {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	for _, name := range []string{"http_requests_total", "http_request_duration_seconds", "http_connections_active",
		"http_requests_in_flight", "kill_switch_active", `component_healthy{component="database"} 1`,
		"db_pool_connections_total", "db_pool_connections_idle", "db_pool_connections_waiting",
		"db_pool_connections_closed_total", `mq_messages_pending{topic="alert"}`, `vigil_incidents_total{severity="high",status="open"}`,
		"vigil_incidents_in_progress", "vigil_triage_duration_seconds_bucket", `vigil_actions_total{action_type="quarantine_email",status="completed"}`,
		"vigil_pending_approvals", "vigil_action_duration_seconds_count"} {
		if !strings.Contains(text, name) {
			t.Errorf("/metrics lacks %s", name)
		}
	}
}

// TestPoolClosedConnectionsMetric: a connection the pool closes shows in
// db_pool_connections_closed_total, so an operator can see a pool that
// reopens its connections under load.
func TestPoolClosedConnectionsMetric(t *testing.T) {
	srv, _ := loggedServer(t)
	closed := func() float64 {
		t.Helper()
		text := string(doRequest(t, http.DefaultClient, srv.URL, http.MethodGet, "/metrics", "", nil, nil).Raw)
		for _, line := range strings.Split(text, "\n") {
			if v, ok := strings.CutPrefix(line, "db_pool_connections_closed_total "); ok {
				n, err := strconv.ParseFloat(v, 64)
				if err != nil {
					t.Fatalf("metric line %q: %v", line, err)
				}
				return n
			}
		}
		t.Fatalf("/metrics lacks db_pool_connections_closed_total:\n%.2000s", text)
		return 0
	}
	sqlDB, err := env.store.SQL()
	if err != nil {
		t.Fatal(err)
	}
	before := closed()
	// The store sets no lifetime; one of a nanosecond makes the pool close
	// the next connection it hands out or takes back.
	sqlDB.SetConnMaxLifetime(time.Nanosecond)
	err = sqlDB.PingContext(context.Background())
	sqlDB.SetConnMaxLifetime(0)
	if err != nil {
		t.Fatal(err)
	}
	if after := closed(); after < before+1 {
		t.Fatalf("db_pool_connections_closed_total went from %v to %v, want at least one more", before, after)
	}
}
