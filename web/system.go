package web

import (
	"net/http"
	"strings"

	"github.com/gin-gonic/gin"
)

func (d *Dashboard) killSwitch(_ *gin.Context, v *view) (string, error) {
	v.Title, v.Nav = "Kill switch", "kill-switch"
	return "killswitch", nil
}

// killSwitchBanner answers the banner's poll with one API read: it runs
// every 5 s on every open page, and each read counts against the user's
// API read limit.
func (d *Dashboard) killSwitchBanner(c *gin.Context) {
	v := &view{}
	if err := d.api.call(c.Request, http.MethodGet, "/api/kill-switch", nil, &v.KillSwitch); err != nil {
		if apiErr, ok := err.(*APIError); ok && apiErr.Status == http.StatusUnauthorized {
			c.Header("HX-Redirect", "/login")
			c.Status(http.StatusUnauthorized)
			return
		}
		// Keep polling; the next answer may succeed.
		c.Status(http.StatusNoContent)
		return
	}
	d.render(c, http.StatusOK, "killswitch", "bannerbox", v)
}

// setKillSwitch activates or deactivates; the API checks the role and
// requires a reason to activate.
func (d *Dashboard) setKillSwitch(c *gin.Context, _ *view) (string, error) {
	activate := c.PostForm("active") == "true"
	path, done := "/api/kill-switch/deactivate", "ks_off"
	if activate {
		path, done = "/api/kill-switch/activate", "ks_on"
	}
	body := map[string]string{"reason": strings.TrimSpace(c.PostForm("reason"))}
	if err := d.api.call(c.Request, http.MethodPost, path, body, nil); err != nil {
		return "", err
	}
	return "/kill-switch?done=" + done, nil
}

// health is GET /health as it answers.
type health struct {
	Status     string            `json:"status"`
	Version    string            `json:"version"`
	Components map[string]string `json:"components"`
}

type connectorHealth struct {
	Connectors []struct {
		Name    string `json:"name"`
		Type    string `json:"type"`
		Status  string `json:"status"`
		Message string `json:"message"`
	} `json:"connectors"`
}

type systemData struct {
	Health     health
	Connectors connectorHealth
}

func (d *Dashboard) system(c *gin.Context, v *view) (string, error) {
	v.Title, v.Nav = "Health", "system"
	data := &systemData{}
	v.Data = data
	if err := d.api.callRaw(c.Request, http.MethodGet, "/health", &data.Health); err != nil && data.Health.Status == "" {
		return "", err
	}
	if err := d.api.callRaw(c.Request, http.MethodGet, "/api/connectors/health", &data.Connectors); err != nil {
		return "", err
	}
	return "system", nil
}

// redisplay picks the page a failed form is shown again on.
func (d *Dashboard) redisplay(c *gin.Context) (pageFunc, bool) {
	switch p := c.FullPath(); {
	case strings.HasPrefix(p, "/incidents/:id"):
		return d.incident, true
	case strings.HasPrefix(p, "/approvals"):
		return d.approvals, true
	case strings.HasPrefix(p, "/actions/:id"):
		return d.actionDetail, true
	case p == "/playbooks/new" || p == "/playbooks/:id/edit":
		return d.playbookEditor, true
	case strings.HasPrefix(p, "/playbooks/:id"):
		return d.playbookDetail, true
	case strings.HasPrefix(p, "/hunts/:id"):
		return d.huntDetail, true
	case strings.HasPrefix(p, "/data-sources"):
		return d.dataSources, true
	case strings.HasPrefix(p, "/notifications"):
		return d.notifications, true
	case strings.HasPrefix(p, "/packages"):
		return d.packages, true
	case strings.HasPrefix(p, "/knowledge"):
		return d.knowledge, true
	case strings.HasPrefix(p, "/kill-switch"):
		return d.killSwitch, true
	case strings.HasPrefix(p, "/admin/"):
		return d.adminRedisplay(p)
	}
	return nil, false
}
