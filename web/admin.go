package web

import (
	"errors"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/gin-gonic/gin"
)

// adminSection is one part of the admin area; MinRole only decides
// which links the hub shows, the API decides what each page may do.
type adminSection struct{ Key, Label, Path, MinRole, About string }

// adminSections lists the admin area's pages in the order the hub and
// the sub-navigation show them.
var adminSections = []adminSection{
	{"users", "Users", "/admin/users", "admin", "Create users, change their role, disable them."},
	{"api-keys", "API keys", "/admin/api-keys", "viewer", "Create keys for scripts (shown once) and revoke them."},
	{"webhooks", "Webhook sources", "/admin/webhooks", "manager", "Register alert senders, rotate their secrets, see the URL to configure."},
	{"policies", "Policy rules", "/admin/policies", "manager", "Decide which actions run at once, need approval or are denied."},
	{"settings", "Settings", "/admin/settings", "admin", "General behaviour, rate limits and the language model."},
	{"connectors", "Connectors", "/admin/connectors", "admin", "Connect EDR, e-mail, identity, ticketing and threat-intel tools, and test them."},
	{"audit", "Audit trail", "/admin/audit", "admin", "Who did what, when, and whether it was allowed."},
}

// AdminSections are the sections the signed-in user's role reaches.
func (v *view) AdminSections() []adminSection {
	var out []adminSection
	for _, s := range adminSections {
		if v.User.AtLeast(s.MinRole) {
			out = append(out, s)
		}
	}
	return out
}

func (d *Dashboard) adminHub(_ *gin.Context, v *view) (string, error) {
	v.Title, v.Nav = "Admin", "admin"
	return "admin", nil
}

// reveal adapts a write whose answer holds a secret shown once (a new
// API key, a webhook secret): the page is rendered in the answer to the
// POST instead of after a redirect, so the secret never sits in a URL or
// in a page that can be opened again.
func (d *Dashboard) reveal(fn pageFunc) gin.HandlerFunc {
	return func(c *gin.Context) {
		v, ok := d.frame(c)
		if !ok {
			return
		}
		tmpl, err := fn(c, v)
		if err != nil {
			d.refuse(c, v, err)
			return
		}
		d.render(c, http.StatusOK, tmpl, "layout", v)
	}
}

// refuse shows the form's page again with the API's refusal beside the
// form named by the posted "form" field.
func (d *Dashboard) refuse(c *gin.Context, v *view, err error) {
	var apiErr *APIError
	if !errors.As(err, &apiErr) {
		d.fail(c, v, err)
		return
	}
	v.FormKey, v.FormErr = c.PostForm("form"), apiErr
	redisplay, ok := d.redisplay(c)
	if !ok {
		d.fail(c, v, err)
		return
	}
	tmpl, perr := redisplay(c, v)
	if perr != nil {
		// The page itself is refused too (a role that may neither read
		// nor write it): the write's refusal is the one to show.
		d.fail(c, v, apiErr)
		return
	}
	d.render(c, apiErr.Status, tmpl, "layout", v)
}

// pageMeta is the meta member of a paged API list.
type pageMeta struct {
	Page    int   `json:"page"`
	PerPage int   `json:"per_page"`
	Total   int64 `json:"total"`
}

// pager holds the links around one page of a list.
type pager struct {
	Meta       pageMeta
	Prev, Next string
}

// pagerOf links the neighbours of the page meta describes, keeping the
// other parameters of f.
func pagerOf(path string, f url.Values, meta pageMeta) pager {
	p := pager{Meta: meta}
	link := func(n int) string {
		g := clone(f)
		g.Set("page", strconv.Itoa(n))
		return path + query(g)
	}
	if meta.Page > 1 {
		p.Prev = link(meta.Page - 1)
	}
	if meta.PerPage > 0 && int64(meta.Page*meta.PerPage) < meta.Total {
		p.Next = link(meta.Page + 1)
	}
	return p
}

// formValues copies the named query parameters that are set.
func formValues(c *gin.Context, names ...string) url.Values {
	f := url.Values{}
	for _, k := range names {
		if val := c.Query(k); val != "" {
			f.Set(k, val)
		}
	}
	return f
}

// adminRedisplay picks the admin page a failed form is shown again on.
func (d *Dashboard) adminRedisplay(route string) (pageFunc, bool) {
	switch {
	case strings.HasPrefix(route, "/admin/users"):
		return d.adminUsers, true
	case strings.HasPrefix(route, "/admin/api-keys"):
		return d.adminKeys, true
	case strings.HasPrefix(route, "/admin/webhooks"):
		return d.adminWebhooks, true
	case route == "/admin/policies/:id":
		return d.adminPolicy, true
	case strings.HasPrefix(route, "/admin/policies"):
		return d.adminPolicies, true
	case strings.HasPrefix(route, "/admin/settings"):
		return d.adminSettings, true
	case strings.HasPrefix(route, "/admin/connectors"):
		return d.adminConnectors, true
	}
	return nil, false
}
