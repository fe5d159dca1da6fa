package api

import (
	"context"
	"maps"
	"net/http"
	"sync"
	"time"

	"github.com/gin-gonic/gin"
	"go.temporal.io/sdk/client"

	"github.com/vigil-soc/vigil/connectors"
)

const probeTimeout = 2 * time.Second

// live answers as long as the process serves HTTP.
func (s *server) live(c *gin.Context) {
	c.JSON(http.StatusOK, gin.H{"status": "alive"})
}

// probeTTL is how long one probe of the database and Temporal answers
// /health and /ready, so that a flood of unauthenticated health checks
// costs one ping of each per interval rather than one per request.
const probeTTL = time.Second

// probeCache holds the last component probe. One caller probes at a time;
// callers that arrive meanwhile wait for its result.
type probeCache struct {
	mu         sync.Mutex
	at         time.Time
	components map[string]string
	healthy    bool
	killSwitch bool
}

// componentStatus reports the database and Temporal (and whether the kill
// switch holds), from a probe at most probeTTL old.
func (s *server) componentStatus(ctx context.Context) (components map[string]string, healthy, killSwitch bool) {
	p := &s.probes
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.components == nil || time.Since(p.at) >= probeTTL {
		// The probe serves every caller of the next interval, so it must
		// not fail because the caller that happened to run it went away.
		p.components, p.healthy, p.killSwitch = s.probe(context.WithoutCancel(ctx))
		p.at = time.Now()
	}
	return maps.Clone(p.components), p.healthy, p.killSwitch
}

// probe pings the database and Temporal and reads the kill switch.
func (s *server) probe(ctx context.Context) (map[string]string, bool, bool) {
	ctx, cancel := context.WithTimeout(ctx, probeTimeout)
	defer cancel()
	components := map[string]string{"database": "healthy", "temporal": "healthy"}
	healthy := true
	s.metrics.healthProbes.WithLabelValues("database").Inc()
	if err := s.store.Ping(ctx); err != nil {
		components["database"], healthy = "unhealthy", false
	}
	s.metrics.healthProbes.WithLabelValues("temporal").Inc()
	if s.temporal == nil {
		components["temporal"], healthy = "unhealthy", false
	} else if _, err := s.temporal.CheckHealth(ctx, &client.CheckHealthRequest{}); err != nil {
		components["temporal"], healthy = "unhealthy", false
	}
	return components, healthy, healthy && s.killSwitchActive(ctx)
}

// ready is 200 only when the database and Temporal both answer.
func (s *server) ready(c *gin.Context) {
	components, healthy, _ := s.componentStatus(c.Request.Context())
	if !healthy {
		c.JSON(http.StatusServiceUnavailable, gin.H{"status": "not_ready", "components": components})
		return
	}
	c.JSON(http.StatusOK, gin.H{"status": "ready", "components": components})
}

// health reports the overall status and the running version: unhealthy
// (503) when a critical component is down, halted while the kill switch
// holds automation, healthy otherwise.
func (s *server) health(c *gin.Context) {
	components, healthy, halted := s.componentStatus(c.Request.Context())
	status, code := "healthy", http.StatusOK
	switch {
	case !healthy:
		status, code = "unhealthy", http.StatusServiceUnavailable
	case halted:
		status = "halted"
		components["kill_switch"] = "active"
	}
	c.JSON(code, gin.H{"status": status, "version": s.opts.Version, "commit": s.opts.Commit, "components": components})
}

// connectorHealth reports each response tool connector.
func (s *server) connectorHealth(c *gin.Context) (reply, error) {
	health, err := s.connectorHealthList(c)
	if err != nil {
		return reply{}, err
	}
	return reply{status: http.StatusOK, raw: true, body: gin.H{"connectors": health}}, nil
}

// connectorHealthList reports the configured connectors when they are
// managed here, else the fixed set; kinds nothing serves report themselves
// unhealthy.
func (s *server) connectorHealthList(ctx context.Context) ([]connectors.Health, error) {
	if s.opts.ConnectorConfigs != nil {
		return s.opts.ConnectorConfigs.Health(ctx)
	}
	return s.connectors.Health(ctx), nil
}
