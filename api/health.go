package api

import (
	"context"
	"net/http"
	"time"

	"github.com/gin-gonic/gin"
	"go.temporal.io/sdk/client"
)

const probeTimeout = 2 * time.Second

// live answers as long as the process serves HTTP.
func (s *server) live(c *gin.Context) {
	c.JSON(http.StatusOK, gin.H{"status": "alive"})
}

// componentStatus probes the database and Temporal.
func (s *server) componentStatus(ctx context.Context) (map[string]string, bool) {
	ctx, cancel := context.WithTimeout(ctx, probeTimeout)
	defer cancel()
	components := map[string]string{"database": "healthy", "temporal": "healthy"}
	healthy := true
	if err := s.store.Ping(ctx); err != nil {
		components["database"], healthy = "unhealthy", false
	}
	if s.temporal == nil {
		components["temporal"], healthy = "unhealthy", false
	} else if _, err := s.temporal.CheckHealth(ctx, &client.CheckHealthRequest{}); err != nil {
		components["temporal"], healthy = "unhealthy", false
	}
	return components, healthy
}

// ready is 200 only when the database and Temporal both answer.
func (s *server) ready(c *gin.Context) {
	components, healthy := s.componentStatus(c.Request.Context())
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
	components, healthy := s.componentStatus(c.Request.Context())
	status, code := "healthy", http.StatusOK
	switch {
	case !healthy:
		status, code = "unhealthy", http.StatusServiceUnavailable
	case s.killSwitchActive(c):
		status = "halted"
		components["kill_switch"] = "active"
	}
	c.JSON(code, gin.H{"status": status, "version": s.opts.Version, "components": components})
}

// connectorHealth reports each response tool connector.
func (s *server) connectorHealth(c *gin.Context) (reply, error) {
	// Connectors that are not configured report themselves unhealthy.
	return reply{status: http.StatusOK, raw: true, body: gin.H{"connectors": s.connectors.Health(c)}}, nil
}
