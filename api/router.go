// Package api is Vigil's HTTP interface: it translates REST calls into store
// reads and writes and Temporal workflow starts, signals and queries.
package api

import (
	"log/slog"
	"net"
	"net/http"
	"time"

	"github.com/gin-gonic/gin"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/ulule/limiter/v3"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/converter"

	"github.com/vigil-soc/vigil/connectors"
	"github.com/vigil-soc/vigil/connectors/configured"
	"github.com/vigil-soc/vigil/dispatch"
	"github.com/vigil-soc/vigil/internal/groupcommit"
	"github.com/vigil-soc/vigil/notify"
	"github.com/vigil-soc/vigil/runview"
	"github.com/vigil-soc/vigil/secrets"
	"github.com/vigil-soc/vigil/settings"
	"github.com/vigil-soc/vigil/store"
)

// Defaults for Options fields left zero.
const (
	DefaultMaxBodyBytes = 1 << 20
	DefaultTriageWait   = 10 * time.Second
	DefaultActionWait   = 10 * time.Second
)

// Options configures the HTTP interface.
type Options struct {
	Store    *store.Store
	Temporal client.Client
	// Settings holds runtime settings (rate limits, session lifetimes);
	// nil means defaults and no settings routes answer.
	Settings *settings.Service
	Log      *slog.Logger
	Version  string
	// Commit is the VCS revision of the build, reported by /health.
	Commit string
	// MaxBodyBytes bounds every request body (413 beyond it).
	MaxBodyBytes int64
	// TriageWait is how long a triage request waits for the verdict before
	// answering 202 with the triage still running.
	TriageWait time.Duration
	// ActionWait is how long an action request or approval waits for the
	// outcome before answering 202.
	ActionWait time.Duration
	// Connectors reach the response tools (scan results, health).
	Connectors connectors.Set
	// ConnectorConfigs, when set, serves the connector configuration
	// routes, and health reports the configured connectors.
	ConnectorConfigs *configured.Service
	// Secrets seals and opens webhook secrets; nil refuses to store them.
	Secrets *secrets.Box
	// Dispatcher drains the intake queue; the intake wakes it.
	Dispatcher *dispatch.Dispatcher
	// IntakeMaxInFlight bounds alerts processed inline at once.
	IntakeMaxInFlight int
	// WebhookFailuresPerMinute is how many failed webhook deliveries one
	// client address may make per minute before it is answered 429
	// without any work; zero means DefaultWebhookFailuresPerMinute.
	WebhookFailuresPerMinute int
	// SecureCookies marks the session cookie Secure even on plain HTTP
	// (for TLS terminated by a proxy).
	SecureCookies bool
	// TrustedProxies are the addresses whose X-Forwarded-For is believed
	// for the client address; empty means none.
	TrustedProxies []string
	// PublicURL is where operators reach Vigil (VIGIL_PUBLIC_URL); the
	// summaries of runs the API starts link to their incident there.
	PublicURL string
	// StorePaths are Vigil's own database files, which a hunt data source
	// may never open.
	StorePaths []string
	// Registerer receives the HTTP metrics; nil means a private registry.
	Registerer prometheus.Registerer
	// Gatherer serves /metrics; nil means the private registry.
	Gatherer prometheus.Gatherer
	// PayloadCodec encrypts Temporal payloads; when set, /codec/encode
	// and /codec/decode (also under /api and /api/v1) serve it to the
	// Temporal Web UI.
	PayloadCodec converter.PayloadCodec
	// RateLimitStore holds the rate limit counters; nil keeps them in this
	// process. A shared store (Redis) makes the limits hold across every
	// API process.
	RateLimitStore limiter.Store
	// CodecAllowedOrigin is the Temporal Web UI's origin, allowed to call
	// the codec routes from the browser with the user's session.
	CodecAllowedOrigin string
	// Notify manages notification channels; nil leaves their routes out.
	Notify *notify.Service
}

type server struct {
	store         *store.Store
	temporal      client.Client
	settings      *settings.Service
	log           *slog.Logger
	opts          Options
	metrics       *httpMetrics
	limiter       *rateLimiter
	loginThrottle *loginThrottle
	connectors    connectors.Set
	launcher      *dispatch.Launcher
	intake        intakeState
	sources       sourceCache
	backlog       backlogState
	commits       *groupcommit.Batcher[store.AlertIncident, store.AlertOutcome]
	failed        *failedDeliveries
	probes        probeCache
	detailed      detailedCache
}

// Router is Vigil's HTTP handler together with the access rule of every
// /api route.
type Router struct {
	*gin.Engine
	// Access lists every /api route with its access rule.
	Access []Route
	// ConnState counts client connections (http_connections_active); set
	// it as the http.Server's ConnState.
	ConnState func(net.Conn, http.ConnState)
}

// NewRouter builds the HTTP handler with every route registered.
func NewRouter(opts Options) *Router {
	if opts.MaxBodyBytes <= 0 {
		opts.MaxBodyBytes = DefaultMaxBodyBytes
	}
	if opts.TriageWait <= 0 {
		opts.TriageWait = DefaultTriageWait
	}
	if opts.ActionWait <= 0 {
		opts.ActionWait = DefaultActionWait
	}
	if opts.IntakeMaxInFlight <= 0 {
		opts.IntakeMaxInFlight = DefaultIntakeMaxInFlight
	}
	if opts.WebhookFailuresPerMinute <= 0 {
		opts.WebhookFailuresPerMinute = DefaultWebhookFailuresPerMinute
	}
	if opts.Log == nil {
		opts.Log = slog.Default()
	}
	reg := prometheus.NewRegistry()
	if opts.Registerer == nil {
		opts.Registerer, opts.Gatherer = reg, reg
	}
	s := &server{store: opts.Store, temporal: opts.Temporal, settings: opts.Settings, log: opts.Log, opts: opts,
		metrics: newHTTPMetrics(opts.Registerer), limiter: newRateLimiter(opts.Settings, opts.RateLimitStore),
		loginThrottle: newLoginThrottle(), connectors: opts.Connectors,
		launcher: &dispatch.Launcher{Store: opts.Store, Temporal: opts.Temporal, Links: runview.Links{PublicURL: opts.PublicURL}},
		failed:   newFailedDeliveries(opts.WebhookFailuresPerMinute), commits: newAlertCommits(opts.Store)}
	s.registerKillSwitchMetric(opts.Registerer)
	opts.Registerer.MustRegister(newOpsCollector(s))

	gin.SetMode(gin.ReleaseMode)
	r := gin.New()
	r.HandleMethodNotAllowed = true
	r.ContextWithFallback = true
	if err := r.SetTrustedProxies(opts.TrustedProxies); err != nil {
		opts.Log.Error("ignoring invalid trusted proxies", "err", err)
		_ = r.SetTrustedProxies(nil)
	}
	r.Use(s.requestID, s.recoverPanics, s.metrics.middleware, s.limitBody)
	r.NoRoute(s.wrap(func(*gin.Context) (reply, error) { return reply{}, notFound("route") }))
	r.NoMethod(s.wrap(func(*gin.Context) (reply, error) {
		return reply{}, newError(http.StatusMethodNotAllowed, CodeMethodNotAllowed, "method not allowed on this route")
	}))

	r.GET("/live", s.live)
	r.GET("/ready", s.ready)
	r.GET("/health", s.health)
	r.GET("/health/detailed", s.healthDetailed)
	r.GET("/metrics", s.metricsHandler())
	r.GET("/login", s.loginPage)
	r.POST("/login", s.wrap(s.login))
	r.POST("/logout", s.identify, s.auditRequest("auth.logout"), s.checkCSRF, s.wrap(s.logout))

	// Every /api route answers under /api/v1 too (SPEC "Versioning").
	a := &routes{s: s, group: r.Group("/api", s.identify), v1: r.Group("/api/v1", s.identify), root: r.Group("", s.identify)}
	const (
		viewer, analyst, manager, admin = store.RoleViewer, store.RoleAnalyst, store.RoleManager, store.RoleAdmin
		get, post, put, del             = http.MethodGet, http.MethodPost, http.MethodPut, http.MethodDelete
	)
	a.handle(Route{get, "/incidents", viewer, ScopeRead, LimitRead, ""}, s.listIncidents)
	a.handle(Route{post, "/incidents", analyst, ScopeWrite, LimitWrite, "incident.create"}, s.createIncident)
	a.handle(Route{get, "/incidents/:id", viewer, ScopeRead, LimitRead, ""}, s.getIncident)
	a.handle(Route{put, "/incidents/:id", analyst, ScopeWrite, LimitWrite, "incident.update"}, s.updateIncident)
	a.handle(Route{del, "/incidents/:id", admin, ScopeAdmin, LimitWrite, "incident.delete"}, s.deleteIncident)
	a.handle(Route{post, "/incidents/:id/triage", analyst, ScopeWrite, LimitTriage, "incident.triage"}, s.triageIncident)
	a.handle(Route{get, "/incidents/:id/triages", viewer, ScopeRead, LimitRead, ""}, s.listTriages)
	a.handle(Route{get, "/incidents/:id/timeline", viewer, ScopeRead, LimitRead, ""}, s.incidentTimeline)
	a.handle(Route{get, "/incidents/:id/executions", viewer, ScopeRead, LimitRead, ""}, s.listIncidentExecutions)

	a.handle(Route{get, "/users", manager, ScopeRead, LimitRead, ""}, s.listUsers)
	a.handle(Route{get, "/users/me", viewer, ScopeRead, LimitRead, ""}, s.currentUser)
	a.handle(Route{get, "/session", viewer, ScopeRead, LimitRead, ""}, s.currentSession)
	a.handle(Route{post, "/users/me/password", viewer, ScopeWrite, LimitWrite, "user.password_change"}, s.changeOwnPassword)
	a.handle(Route{get, "/users/:id", manager, ScopeRead, LimitRead, ""}, s.getUser)
	a.handle(Route{post, "/users", admin, ScopeAdmin, LimitWrite, "user.create"}, s.createUser)
	a.handle(Route{put, "/users/:id", admin, ScopeAdmin, LimitWrite, "user.update"}, s.updateUser)
	a.handle(Route{del, "/users/:id", admin, ScopeAdmin, LimitWrite, "user.delete"}, s.deleteUser)

	a.handle(Route{get, "/api-keys", viewer, ScopeRead, LimitRead, ""}, s.listAPIKeys)
	a.handle(Route{post, "/api-keys", viewer, ScopeWrite, LimitWrite, "api_key.create"}, s.createAPIKey)
	a.handle(Route{get, "/api-keys/:id", viewer, ScopeRead, LimitRead, ""}, s.getAPIKey)
	a.handle(Route{del, "/api-keys/:id", viewer, ScopeWrite, LimitWrite, "api_key.revoke"}, s.revokeAPIKey)

	if s.settings != nil {
		a.handle(Route{get, "/settings", viewer, ScopeRead, LimitRead, ""}, s.listSettings)
		a.handle(Route{get, "/settings/:key", viewer, ScopeRead, LimitRead, ""}, s.getSetting)
		a.handle(Route{put, "/settings/:key", admin, ScopeAdmin, LimitWrite, "setting.update"}, s.putSetting)
	}

	a.handle(Route{get, "/audit", admin, ScopeAdmin, LimitRead, ""}, s.listAudit)

	// Webhook sources; the intake itself is signed or carries the source's
	// token, not an API key.
	r.POST("/api/webhooks/:source", s.wrap(s.receiveWebhook))
	r.POST("/api/v1/webhooks/:source", s.wrap(s.receiveWebhook))
	r.POST("/api/webhooks/:source/:token", s.wrap(s.receiveWebhookToken))
	r.POST("/api/v1/webhooks/:source/:token", s.wrap(s.receiveWebhookToken))
	a.handle(Route{get, "/webhooks", manager, ScopeRead, LimitRead, ""}, s.listWebhooks)
	a.handle(Route{post, "/webhooks", manager, ScopeAdmin, LimitWrite, "webhook.register"}, s.registerWebhook)
	a.handle(Route{get, "/webhooks/:source", manager, ScopeRead, LimitRead, ""}, s.getWebhook)
	a.handle(Route{del, "/webhooks/:source", manager, ScopeAdmin, LimitWrite, "webhook.delete"}, s.deleteWebhook)
	a.handle(Route{post, "/webhooks/:source/rotate-secret", manager, ScopeAdmin, LimitWrite, "webhook.rotate_secret"}, s.rotateWebhookSecret)
	a.handle(Route{post, "/webhooks/:source/rotate-token", manager, ScopeAdmin, LimitWrite, "webhook.rotate_token"}, s.rotateWebhookToken)
	a.handle(Route{post, "/webhooks/:source/preview", manager, ScopeRead, LimitRead, "webhook.preview"}, s.previewWebhook)

	// Playbooks.
	a.handle(Route{get, "/playbooks", viewer, ScopeRead, LimitRead, ""}, s.listPlaybooks)
	a.handle(Route{get, "/playbooks/schema", viewer, ScopeRead, LimitRead, ""}, s.playbookSchema)
	a.handle(Route{post, "/playbooks/validate", viewer, ScopeRead, LimitRead, "playbook.validate"}, s.validatePlaybook)
	a.handle(Route{post, "/playbooks", manager, ScopeWrite, LimitWrite, "playbook.create"}, s.createPlaybook)
	a.handle(Route{get, "/playbooks/:id", viewer, ScopeRead, LimitRead, ""}, s.getPlaybook)
	a.handle(Route{put, "/playbooks/:id", manager, ScopeWrite, LimitWrite, "playbook.update"}, s.updatePlaybook)
	a.handle(Route{del, "/playbooks/:id", manager, ScopeWrite, LimitWrite, "playbook.delete"}, s.deletePlaybook)
	a.handle(Route{get, "/playbooks/:id/export", viewer, ScopeRead, LimitRead, ""}, s.exportPlaybook)
	a.handle(Route{get, "/playbooks/:id/versions", viewer, ScopeRead, LimitRead, ""}, s.listPlaybookVersions)
	a.handle(Route{get, "/playbooks/:id/versions/:version", viewer, ScopeRead, LimitRead, ""}, s.getPlaybookVersion)
	a.handle(Route{post, "/playbooks/:id/versions/:version/restore", manager, ScopeWrite, LimitWrite, "playbook.restore"}, s.restorePlaybookVersion)
	a.handle(Route{post, "/playbooks/:id/run", analyst, ScopeActionsExecute, LimitWrite, "playbook.run"}, s.runPlaybook)
	a.handle(Route{get, "/playbooks/:id/executions", viewer, ScopeRead, LimitRead, ""}, s.listExecutions)
	a.handle(Route{get, "/playbooks/:id/executions/:execution_id", viewer, ScopeRead, LimitRead, ""}, s.getExecution)

	// Policy rules.
	a.handle(Route{get, "/policies", viewer, ScopeRead, LimitRead, ""}, s.listPolicies)
	a.handle(Route{get, "/policies/:id", viewer, ScopeRead, LimitRead, ""}, s.getPolicy)
	a.handle(Route{post, "/policies", manager, ScopeWrite, LimitWrite, "policy.create"}, s.createPolicy)
	a.handle(Route{put, "/policies/:id", manager, ScopeWrite, LimitWrite, "policy.update"}, s.updatePolicy)
	a.handle(Route{del, "/policies/:id", manager, ScopeWrite, LimitWrite, "policy.delete"}, s.deletePolicy)

	// Actions, approvals and the kill switch.
	a.handle(Route{get, "/actions/types", viewer, ScopeRead, LimitRead, ""}, s.listActionTypes)
	a.handle(Route{get, "/actions", viewer, ScopeRead, LimitRead, ""}, s.listActions)
	a.handle(Route{post, "/actions/execute", analyst, ScopeActionsExecute, LimitWrite, "action.request"}, s.executeAction)
	a.handle(Route{get, "/actions/:id", viewer, ScopeRead, LimitRead, ""}, s.getAction)
	a.handle(Route{get, "/actions/:id/scan", viewer, ScopeRead, LimitRead, ""}, s.scanResults)
	// Every role reaches approve, so a viewer hears insufficient_approval_level
	// with the action's level (SPEC); the handler decides by level.
	a.handle(Route{post, "/actions/:id/approve", viewer, ScopeActionsApprove, LimitWrite, "action.approve"}, s.approveAction)
	a.handle(Route{post, "/actions/:id/reject", analyst, ScopeActionsApprove, LimitWrite, "action.reject"}, s.rejectAction)
	a.handle(Route{post, "/actions/:id/rollback", analyst, ScopeActionsExecute, LimitWrite, "action.rollback"}, s.rollbackAction)
	a.handle(Route{post, "/incidents/:id/actions", analyst, ScopeActionsExecute, LimitWrite, "action.request"}, s.requestIncidentAction)
	a.handle(Route{get, "/incidents/:id/actions", viewer, ScopeRead, LimitRead, ""}, s.listIncidentActions)
	a.handle(Route{get, "/kill-switch", viewer, ScopeRead, LimitRead, ""}, s.getKillSwitch)
	a.handle(Route{post, "/kill-switch/activate", manager, ScopeWrite, LimitWrite, "kill_switch.activate"}, s.activateKillSwitch)
	a.handle(Route{post, "/kill-switch/deactivate", manager, ScopeWrite, LimitWrite, "kill_switch.deactivate"}, s.deactivateKillSwitch)
	registerConnectors(a, s)
	a.handle(Route{get, "/metrics", viewer, ScopeRead, LimitRead, ""}, s.opsMetrics)
	if opts.PayloadCodec != nil {
		a.registerCodec()
	}

	// Notifications: managers write, analysts read; secrets are write-only.
	if opts.Notify != nil {
		a.handle(Route{get, "/notifications/channels", analyst, ScopeRead, LimitRead, ""}, s.listChannels)
		a.handle(Route{post, "/notifications/channels", manager, ScopeWrite, LimitWrite, "notification_channel.create"}, s.createChannel)
		a.handle(Route{get, "/notifications/channels/:id", analyst, ScopeRead, LimitRead, ""}, s.getChannel)
		a.handle(Route{put, "/notifications/channels/:id", manager, ScopeWrite, LimitWrite, "notification_channel.update"}, s.updateChannel)
		a.handle(Route{del, "/notifications/channels/:id", manager, ScopeWrite, LimitWrite, "notification_channel.delete"}, s.deleteChannel)
		a.handle(Route{post, "/notifications/test", manager, ScopeWrite, LimitWrite, "notification.test"}, s.testChannel)
		a.handle(Route{get, "/notifications/deliveries", analyst, ScopeRead, LimitRead, ""}, s.listDeliveries)
		// Slack button presses: signed by the channel's signing secret and
		// decided as the Vigil user the Slack user's e-mail names.
		r.POST("/api/integrations/slack/interactions", s.wrap(s.slackInteraction))
	}

	registerHunts(a, s)
	registerPackages(a, s)
	rt := &Router{Engine: r, Access: a.list, ConnState: s.metrics.connState}
	doc := &openAPIDoc{}
	r.GET(OpenAPIPath, doc.handler(rt, opts.Version))
	r.GET("/api/v1/openapi.json", doc.handler(rt, opts.Version))
	return rt
}

// limitBody caps every request body; reading past the cap fails with
// http.MaxBytesError, answered as 413.
func (s *server) limitBody(c *gin.Context) {
	limit := s.bodyLimitFor(c.FullPath())
	if c.Request.ContentLength > limit {
		s.abortWithError(c, &http.MaxBytesError{Limit: limit})
		return
	}
	c.Request.Body = http.MaxBytesReader(c.Writer, c.Request.Body, limit)
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
