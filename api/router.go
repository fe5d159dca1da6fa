// Package api is Vigil's HTTP interface: it translates REST calls into store
// reads and writes and Temporal workflow starts, signals and queries.
package api

import (
	"log/slog"
	"net/http"
	"time"

	"github.com/gin-gonic/gin"
	"github.com/prometheus/client_golang/prometheus"
	"go.temporal.io/sdk/client"

	"github.com/vigil-soc/vigil/store"
)

// Defaults for Options fields left zero.
const (
	DefaultMaxBodyBytes = 1 << 20
	DefaultTriageWait   = 10 * time.Second
)

// Options configures the HTTP interface.
type Options struct {
	Store    *store.Store
	Temporal client.Client
	Log      *slog.Logger
	Version  string
	// MaxBodyBytes bounds every request body (413 beyond it).
	MaxBodyBytes int64
	// TriageWait is how long a triage request waits for the verdict before
	// answering 202 with the triage still running.
	TriageWait time.Duration
	// Registerer receives the HTTP metrics; nil means a private registry.
	Registerer prometheus.Registerer
	// Gatherer serves /metrics; nil means the private registry.
	Gatherer prometheus.Gatherer
}

type server struct {
	store    *store.Store
	temporal client.Client
	log      *slog.Logger
	opts     Options
	metrics  *httpMetrics
}

// Route is one registered API route and the least role allowed to call it.
type Route struct {
	Method  string
	Path    string
	MinRole string
}

// Router is Vigil's HTTP handler together with the access rule of every
// /api route.
type Router struct {
	*gin.Engine
	// Access lists every /api route with the least role allowed to call it.
	Access []Route
}

// NewRouter builds the HTTP handler with every route registered.
func NewRouter(opts Options) *Router {
	if opts.MaxBodyBytes <= 0 {
		opts.MaxBodyBytes = DefaultMaxBodyBytes
	}
	if opts.TriageWait <= 0 {
		opts.TriageWait = DefaultTriageWait
	}
	if opts.Log == nil {
		opts.Log = slog.Default()
	}
	reg := prometheus.NewRegistry()
	if opts.Registerer == nil {
		opts.Registerer, opts.Gatherer = reg, reg
	}
	s := &server{store: opts.Store, temporal: opts.Temporal, log: opts.Log, opts: opts,
		metrics: newHTTPMetrics(opts.Registerer)}

	gin.SetMode(gin.ReleaseMode)
	r := gin.New()
	r.HandleMethodNotAllowed = true
	r.ContextWithFallback = true
	r.Use(s.recoverPanics, s.metrics.middleware, s.limitBody)
	r.NoRoute(s.wrap(func(*gin.Context) (reply, error) { return reply{}, notFound("route") }))
	r.NoMethod(s.wrap(func(*gin.Context) (reply, error) {
		return reply{}, newError(http.StatusMethodNotAllowed, CodeMethodNotAllowed, "method not allowed on this route")
	}))

	r.GET("/live", s.live)
	r.GET("/ready", s.ready)
	r.GET("/health", s.health)
	r.GET("/metrics", s.metricsHandler())

	a := &routes{s: s, group: r.Group("/api", s.authenticate)}
	a.handle(http.MethodGet, "/incidents", store.RoleViewer, s.listIncidents)
	a.handle(http.MethodPost, "/incidents", store.RoleAnalyst, s.createIncident)
	a.handle(http.MethodGet, "/incidents/:id", store.RoleViewer, s.getIncident)
	a.handle(http.MethodPut, "/incidents/:id", store.RoleAnalyst, s.updateIncident)
	a.handle(http.MethodDelete, "/incidents/:id", store.RoleAdmin, s.deleteIncident)
	a.handle(http.MethodPost, "/incidents/:id/triage", store.RoleAnalyst, s.triageIncident)
	return &Router{Engine: r, Access: a.list}
}

// routes registers /api handlers; a route cannot be added without naming
// the least role allowed to call it.
type routes struct {
	s     *server
	group *gin.RouterGroup
	list  []Route
}

func (a *routes) handle(method, path, minRole string, h handlerFunc) {
	if store.RoleRank(minRole) < 0 {
		panic("api: route " + method + " " + path + " has no valid access rule")
	}
	a.group.Handle(method, path, a.s.requireRole(minRole), a.s.wrap(h))
	a.list = append(a.list, Route{Method: method, Path: "/api" + path, MinRole: minRole})
}

// limitBody caps every request body; reading past the cap fails with
// http.MaxBytesError, answered as 413.
func (s *server) limitBody(c *gin.Context) {
	if c.Request.ContentLength > s.opts.MaxBodyBytes {
		s.abortWithError(c, &http.MaxBytesError{Limit: s.opts.MaxBodyBytes})
		return
	}
	c.Request.Body = http.MaxBytesReader(c.Writer, c.Request.Body, s.opts.MaxBodyBytes)
	c.Next()
}

func (s *server) recoverPanics(c *gin.Context) {
	defer func() {
		if rec := recover(); rec != nil {
			if rec == http.ErrAbortHandler {
				panic(rec)
			}
			s.log.Error("panic while serving request", "method", c.Request.Method,
				"path", c.FullPath(), "panic", rec)
			s.abortWithError(c, newError(http.StatusInternalServerError, CodeInternal, "internal server error"))
		}
	}()
	c.Next()
}
