// Package web is Vigil's dashboard: server-rendered pages for analysts,
// approvers and managers. It holds no business rules of its own; every
// read and write is a request to the JSON API handler in the same process,
// made with the signed-in user's session, so the API's checks (role,
// scope, approval level, four-eyes, CSRF) decide every button.
package web

import (
	"embed"
	"io/fs"
	"log/slog"
	"net/http"
	"strings"

	"github.com/gin-gonic/gin"
)

// sessionCookie is the API's session cookie, forwarded to the API as is.
const sessionCookie = "vigil_session"

// DefaultTemporalUIURL is where the Temporal Web UI of a dev server listens.
const DefaultTemporalUIURL = "http://127.0.0.1:8233"

//go:embed templates/*.html
var templateFS embed.FS

//go:embed static
var staticFS embed.FS

// Options configures the dashboard.
type Options struct {
	// API is the JSON API's handler; the dashboard sends it every read
	// and write.
	API http.Handler
	// TemporalUIURL is the Temporal Web UI that workflow-backed objects
	// link to (VIGIL_TEMPORAL_UI_URL).
	TemporalUIURL string
	// TemporalNamespace names the namespace in those links.
	TemporalNamespace string
	// PublicURL is where senders and browsers reach this service
	// (VIGIL_PUBLIC_URL); empty means the address a request came to.
	PublicURL string
	Log       *slog.Logger
}

// Dashboard serves the pages.
type Dashboard struct {
	api   apiClient
	opts  Options
	pages *pages
	log   *slog.Logger
}

// New builds the dashboard; it panics when its embedded templates do not
// parse, which a test catches before any release.
func New(opts Options) *Dashboard {
	if opts.TemporalUIURL == "" {
		opts.TemporalUIURL = DefaultTemporalUIURL
	}
	opts.TemporalUIURL = strings.TrimRight(opts.TemporalUIURL, "/")
	opts.PublicURL = strings.TrimRight(opts.PublicURL, "/")
	if opts.TemporalNamespace == "" {
		opts.TemporalNamespace = "default"
	}
	if opts.Log == nil {
		opts.Log = slog.Default()
	}
	return &Dashboard{api: apiClient{api: opts.API}, opts: opts, pages: mustParsePages(), log: opts.Log}
}

// Mount registers the dashboard's routes on r, beside the API's. All
// dashboard routes are listed here.
func (d *Dashboard) Mount(r gin.IRouter) {
	static, _ := fs.Sub(staticFS, "static")
	assets := r.Group("/static", securityHeaders, cacheStatic)
	assets.StaticFS("/", http.FS(static))

	g := r.Group("", securityHeaders)
	g.GET("/", func(c *gin.Context) { c.Redirect(http.StatusSeeOther, "/incidents") })
	g.GET("/incidents", d.page(d.incidents))
	g.GET("/incidents/:id", d.page(d.incident))
	g.GET("/incidents/:id/actions-table", d.fragment(d.incidentActions))
	g.POST("/incidents/:id/triage", d.form(d.triage))
	g.POST("/incidents/:id/update", d.form(d.updateIncident))
	g.POST("/incidents/:id/actions", d.form(d.requestAction))
	g.GET("/approvals", d.page(d.approvals))
	g.GET("/approvals/queue", d.fragment(d.approvalQueue))
	g.POST("/approvals/:id/approve", d.form(d.approve))
	g.POST("/approvals/:id/reject", d.form(d.reject))
	g.GET("/actions", d.page(d.actionsList))
	g.GET("/actions/:id", d.page(d.actionDetail))
	g.POST("/actions/:id/rollback", d.form(d.rollback))
	g.GET("/playbooks", d.page(d.playbooks))
	g.GET("/playbooks/new", d.page(d.playbookEditor))
	g.POST("/playbooks/new", d.form(d.savePlaybook))
	g.POST("/playbooks/validate", d.fragment(d.validatePlaybook))
	g.GET("/playbooks/:id", d.page(d.playbookDetail))
	g.GET("/playbooks/:id/edit", d.page(d.playbookEditor))
	g.POST("/playbooks/:id/edit", d.form(d.savePlaybook))
	g.POST("/playbooks/:id/versions/:version/restore", d.form(d.restoreVersion))
	g.POST("/playbooks/:id/run", d.form(d.runPlaybook))
	g.GET("/playbooks/:id/runs/:run", d.page(d.playbookRun))
	g.GET("/playbooks/:id/runs/:run/progress", d.fragment(d.playbookRunProgress))
	g.GET("/hunts", d.page(d.hunts))
	g.GET("/hunts/:id", d.page(d.huntDetail))
	g.POST("/hunts/:id/execute", d.form(d.executeHunt))
	g.POST("/hunts/:id/findings/:finding/promote", d.form(d.promoteFinding))
	g.POST("/hunts/:id/schedule/trigger", d.form(d.triggerHuntSchedule))
	g.GET("/data-sources", d.page(d.dataSources))
	g.GET("/data-sources/:name", d.page(d.dataSources))
	g.POST("/data-sources/new", d.form(d.saveDataSource))
	g.POST("/data-sources/:name", d.form(d.saveDataSource))
	g.POST("/data-sources/:name/test", d.reveal(d.testDataSource))
	g.POST("/data-sources/:name/delete", d.form(d.deleteDataSource))
	g.GET("/packages", d.page(d.packages))
	g.POST("/packages/preview", d.page(d.previewPackage))
	g.POST("/packages/import", d.form(d.importPackage))
	g.GET("/packages/:name", d.page(d.packageDetail))
	g.POST("/packages/:name/delete", d.form(d.deletePackage))
	g.GET("/knowledge", d.page(d.knowledge))
	g.POST("/knowledge", d.form(d.createArticle))
	g.GET("/knowledge/:id", d.page(d.knowledgeArticle))
	g.GET("/kill-switch", d.page(d.killSwitch))
	g.GET("/kill-switch/banner", d.killSwitchBanner)
	g.POST("/kill-switch", d.form(d.setKillSwitch))
	g.GET("/system", d.page(d.system))
	g.GET("/admin", d.page(d.adminHub))
	g.GET("/admin/users", d.page(d.adminUsers))
	g.POST("/admin/users", d.form(d.createUser))
	g.POST("/admin/users/:id", d.form(d.updateUser))
	g.GET("/admin/api-keys", d.page(d.adminKeys))
	g.POST("/admin/api-keys", d.reveal(d.createKey))
	g.POST("/admin/api-keys/:id/revoke", d.form(d.revokeKey))
	g.GET("/admin/webhooks", d.page(d.adminWebhooks))
	g.POST("/admin/webhooks", d.reveal(d.registerWebhook))
	g.POST("/admin/webhooks/:source/rotate", d.reveal(d.rotateWebhook))
	g.POST("/admin/webhooks/:source/delete", d.form(d.deleteWebhook))
	g.GET("/admin/policies", d.page(d.adminPolicies))
	g.POST("/admin/policies", d.form(d.createPolicy))
	g.GET("/admin/policies/:id", d.page(d.adminPolicy))
	g.POST("/admin/policies/:id", d.form(d.updatePolicy))
	g.POST("/admin/policies/:id/delete", d.form(d.deletePolicy))
	g.GET("/admin/settings", d.page(d.adminSettings))
	g.POST("/admin/settings/:key", d.form(d.saveSetting))
	g.GET("/admin/audit", d.page(d.adminAudit))
	g.GET("/admin/connectors", d.page(d.adminConnectors))
	g.POST("/admin/connectors/:id", d.form(d.saveConnector))
	g.POST("/admin/connectors/:id/test", d.form(d.testConnector))
	g.POST("/admin/connectors/:id/delete", d.form(d.deleteConnector))
	g.GET("/notifications", d.page(d.notifications))
	g.GET("/notifications/deliveries", d.page(d.deliveries))
	g.GET("/notifications/:id", d.page(d.notifications))
	g.POST("/notifications/new", d.form(d.saveChannel))
	g.POST("/notifications/:id", d.form(d.saveChannel))
	g.POST("/notifications/:id/test", d.form(d.testChannel))
	g.POST("/notifications/:id/delete", d.form(d.deleteChannel))
	for _, p := range placeholders {
		g.GET(p.Path, d.page(d.placeholder(p)))
	}
}

// securityHeaders forbid framing, inline script and content sniffing on
// every dashboard answer.
func securityHeaders(c *gin.Context) {
	h := c.Writer.Header()
	h.Set("Content-Security-Policy", "default-src 'self'; img-src 'self' data:; frame-ancestors 'none'; form-action 'self'; base-uri 'none'; object-src 'none'")
	h.Set("X-Frame-Options", "DENY")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "same-origin")
	c.Next()
}

func cacheStatic(c *gin.Context) {
	// Assets change only with the binary; an hour keeps pages light
	// without serving a stale script long after an upgrade.
	c.Header("Cache-Control", "public, max-age=3600")
	c.Next()
}
