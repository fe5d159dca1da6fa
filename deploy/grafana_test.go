package deploy

import (
	"encoding/json"
	"os"
	"strings"
	"testing"
)

// specMetrics are the metric names the service exposes by specification.
var specMetrics = []string{
	"http_requests_total", "http_request_duration_seconds", "http_connections_active", "http_requests_in_flight",
	"kill_switch_active", "component_healthy", "db_pool_connections_total", "db_pool_connections_idle",
	"db_pool_connections_waiting", "cache_hits_total", "cache_misses_total", "cache_size", "llm_requests_total",
	"llm_tokens_used_total", "webhook_received_total", "webhook_errors_total", "mq_messages_pending",
	"vigil_incidents_total", "vigil_incidents_in_progress", "vigil_triage_duration_seconds", "vigil_actions_total",
	"vigil_pending_approvals", "vigil_action_duration_seconds",
}

func TestGrafanaDashboardChartsEveryMetric(t *testing.T) {
	raw, err := os.ReadFile("grafana/vigil-dashboard.json")
	if err != nil {
		t.Fatal(err)
	}
	var dash struct {
		UID    string `json:"uid"`
		Panels []struct {
			ID      int                       `json:"id"`
			Title   string                    `json:"title"`
			GridPos *struct{ X, Y, W, H int } `json:"gridPos"`
			Targets []struct {
				Expr string `json:"expr"`
			} `json:"targets"`
		} `json:"panels"`
	}
	if err := json.Unmarshal(raw, &dash); err != nil || dash.UID == "" {
		t.Fatalf("dashboard JSON: %v", err)
	}
	var exprs strings.Builder
	ids := map[int]bool{}
	for _, p := range dash.Panels {
		if p.GridPos == nil || p.GridPos.W == 0 || ids[p.ID] || len(p.Targets) == 0 {
			t.Errorf("panel %q: position, unique id or queries missing", p.Title)
		}
		ids[p.ID] = true
		for _, tg := range p.Targets {
			if strings.Count(tg.Expr, "(") != strings.Count(tg.Expr, ")") {
				t.Errorf("panel %q: unbalanced query %s", p.Title, tg.Expr)
			}
			exprs.WriteString(tg.Expr + "\n")
		}
	}
	for _, m := range specMetrics {
		if !strings.Contains(exprs.String(), m) {
			t.Errorf("no panel charts %s", m)
		}
	}
}
