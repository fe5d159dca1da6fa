package api

import (
	"context"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/gin-gonic/gin"
	"go.temporal.io/sdk/client"

	"github.com/vigil-soc/vigil/connectors"
	"github.com/vigil-soc/vigil/llm"
)

// Component statuses in GET /health/detailed beyond healthy and unhealthy.
const (
	statusHealthy       = "healthy"
	statusUnhealthy     = "unhealthy"
	statusDegraded      = "degraded"
	statusNotConfigured = "not_configured"
)

// componentHealth is one component's line in GET /health/detailed.
type componentHealth struct {
	Status    string  `json:"status"`
	LatencyMS float64 `json:"latency_ms"`
	Critical  bool    `json:"critical"`
	Message   string  `json:"message,omitempty"`
}

// healthReport is the body of GET /health/detailed.
type healthReport struct {
	Status     string                     `json:"status"`
	Version    string                     `json:"version"`
	CheckedAt  time.Time                  `json:"checked_at"`
	Components map[string]componentHealth `json:"components"`
}

// detailedCache keeps the last report for probeTTL, like probeCache.
type detailedCache struct {
	mu     sync.Mutex
	report healthReport
}

// healthDetailed answers GET /health/detailed: every component with its
// status and probe latency. The database and Temporal are critical
// (unhealthy, 503); the LLM and the connectors are not (degraded, 200).
func (s *server) healthDetailed(c *gin.Context) {
	r := s.detailedHealth(c.Request.Context())
	code := http.StatusOK
	if r.Status == statusUnhealthy {
		code = http.StatusServiceUnavailable
	}
	c.JSON(code, r)
}

func (s *server) detailedHealth(ctx context.Context) healthReport {
	d := &s.detailed
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.report.Components == nil || time.Since(d.report.CheckedAt) >= probeTTL {
		d.report = s.probeAll(context.WithoutCancel(ctx))
	}
	out := d.report
	out.Components = make(map[string]componentHealth, len(d.report.Components))
	for k, v := range d.report.Components {
		out.Components[k] = v
	}
	return out
}

func (s *server) probeAll(ctx context.Context) healthReport {
	ctx, cancel := context.WithTimeout(ctx, probeTimeout)
	defer cancel()
	timed := func(critical bool, probe func() (string, string)) componentHealth {
		start := time.Now()
		status, msg := probe()
		return componentHealth{Status: status, Message: msg, Critical: critical,
			LatencyMS: float64(time.Since(start).Microseconds()) / 1000}
	}
	comps := map[string]componentHealth{
		"database": timed(true, func() (string, string) { return errStatus(s.store.Ping(ctx)) }),
		"temporal": timed(true, func() (string, string) {
			if s.temporal == nil {
				return statusUnhealthy, "no client"
			}
			_, err := s.temporal.CheckHealth(ctx, &client.CheckHealthRequest{})
			return errStatus(err)
		}),
		"llm":        timed(false, func() (string, string) { return s.probeLLM(ctx) }),
		"connectors": timed(false, func() (string, string) { return s.probeConnectors(ctx) }),
		// Outbound notifications have no channels to probe yet.
		"notifications": {Status: statusNotConfigured},
	}
	ks := timed(false, func() (string, string) {
		k, err := s.store.KillSwitch(ctx)
		switch {
		case err != nil:
			return statusUnhealthy, "kill switch state unreadable"
		case k.Active:
			// The reason stays behind authentication (GET /api/kill-switch).
			return "active", "automation halted"
		}
		return "inactive", ""
	})
	comps["kill_switch"] = ks
	status := statusHealthy
	for _, c := range comps {
		switch {
		case c.Critical && c.Status == statusUnhealthy:
			status = statusUnhealthy
		case status == statusHealthy && (c.Status == statusUnhealthy || c.Status == statusDegraded):
			status = statusDegraded
		}
	}
	if status != statusUnhealthy && ks.Status == "active" {
		status = "halted"
	}
	return healthReport{Status: status, Version: s.opts.Version, CheckedAt: time.Now().UTC(), Components: comps}
}

func errStatus(err error) (string, string) {
	if err != nil {
		return statusUnhealthy, "not answering"
	}
	return statusHealthy, ""
}

// probeLLM reaches the configured provider's base URL without its key;
// any HTTP answer below 500 counts as reachable. Without a provider the
// rule-based analyzer triages and the LLM is not_configured.
func (s *server) probeLLM(ctx context.Context) (string, string) {
	if s.settings == nil {
		return statusNotConfigured, ""
	}
	cfg, enabled, err := llm.ConfigFromSettings(s.settings)(ctx)
	if err != nil {
		return statusUnhealthy, "llm setting unreadable"
	}
	if !enabled || cfg.BaseURL == "" {
		return statusNotConfigured, "rule-based analysis in use"
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, strings.TrimRight(cfg.BaseURL, "/")+"/models", nil)
	if err != nil {
		return statusUnhealthy, "invalid base URL"
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		return statusUnhealthy, "provider unreachable"
	}
	res.Body.Close()
	if res.StatusCode >= 500 {
		return statusUnhealthy, "provider answered " + res.Status
	}
	return statusHealthy, cfg.Provider
}

func (s *server) probeConnectors(ctx context.Context) (string, string) {
	var bad []string
	health, err := s.connectorHealthList(ctx)
	if err != nil {
		return statusDegraded, "connector configuration unreadable"
	}
	for _, h := range health {
		if h.Status != connectors.StatusHealthy {
			bad = append(bad, h.Name+" "+h.Status)
		}
	}
	if len(bad) > 0 {
		return statusDegraded, strings.Join(bad, ", ")
	}
	return statusHealthy, ""
}
