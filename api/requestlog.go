package api

import (
	"log/slog"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/vigil-soc/vigil/internal/reqid"
)

// quietPaths are probed often by machines; their access lines go to debug.
var quietPaths = map[string]bool{"/live": true, "/ready": true, "/health": true, "/metrics": true}

// requestID takes the caller's X-Request-ID when it is sane or makes one,
// returns it, puts it in the request's context (so every line logged
// with that context carries it, and workflow starts log it) and writes
// the access log line once the request is answered.
func (s *server) requestID(c *gin.Context) {
	start := time.Now()
	id := reqid.FromHeader(c.GetHeader(reqid.Header))
	c.Header(reqid.Header, id)
	c.Request = c.Request.WithContext(reqid.With(c.Request.Context(), id))
	c.Next()
	route := c.FullPath()
	if route == "" {
		route = unmatchedPath
	}
	who, _ := principalID(c)
	level := slog.LevelInfo
	if quietPaths[route] {
		level = slog.LevelDebug
	}
	s.log.LogAttrs(c.Request.Context(), level, "http request",
		slog.String("method", c.Request.Method), slog.String("route", route),
		slog.Int("status", c.Writer.Status()),
		slog.Float64("latency_ms", float64(time.Since(start).Microseconds())/1000),
		slog.Int("bytes", c.Writer.Size()), slog.String("principal", who))
}
