package web

import (
	"bytes"
	"errors"
	"html/template"
	"io/fs"
	"net/http"
	"net/url"
	"path"
	"strings"

	"github.com/gin-gonic/gin"
)

// view is what every page template receives: the frame's data (user,
// CSRF token, kill switch, navigation) and the page's own Data.
type view struct {
	Title      string
	Nav        string // key of the active navigation entry
	User       sessionUser
	CSRF       string
	KillSwitch killSwitchState
	TemporalUI string
	Namespace  string
	Path       string
	Query      string
	// Done is a success message after a redirect (from a fixed list).
	Done string
	// FormKey and FormErr are the failed form and the API's refusal,
	// shown next to that form.
	FormKey string
	FormErr *APIError
	Data    any
}

// ErrFor returns the refusal when key names the form that failed.
func (v *view) ErrFor(key string) *APIError {
	if v.FormKey == key {
		return v.FormErr
	}
	return nil
}

// pageFunc fills v.Data (and Title, Nav) and names the template to render.
type pageFunc func(c *gin.Context, v *view) (tmpl string, err error)

// formFunc performs a write and returns where to go after it; on failure
// the form's page is shown again with the error beside the form.
type formFunc func(c *gin.Context, v *view) (next string, err error)

// pages holds one parsed template set per page: layout + partials + page.
type pages struct {
	byName map[string]*template.Template
}

func mustParsePages() *pages {
	shared := []string{"templates/layout.html", "templates/partials.html"}
	names, err := fs.Glob(templateFS, "templates/*.html")
	if err != nil {
		panic(err)
	}
	p := &pages{byName: map[string]*template.Template{}}
	for _, n := range names {
		base := path.Base(n)
		if base == "layout.html" || base == "partials.html" {
			continue
		}
		t := template.New(base).Funcs(funcs)
		p.byName[strings.TrimSuffix(base, ".html")] = template.Must(t.ParseFS(templateFS, append(shared, n)...))
	}
	return p
}

// render writes a whole page (template "layout") or, with fragment set,
// one named template of the page's set.
func (d *Dashboard) render(c *gin.Context, status int, page, tmpl string, v *view) {
	t, ok := d.pages.byName[page]
	if !ok {
		d.log.Error("dashboard template missing", "page", page)
		c.Status(http.StatusInternalServerError)
		return
	}
	var buf bytes.Buffer
	if err := t.ExecuteTemplate(&buf, tmpl, v); err != nil {
		d.log.Error("dashboard template failed", "page", page, "err", err)
		c.Data(http.StatusInternalServerError, "text/plain; charset=utf-8", []byte("the page could not be rendered"))
		return
	}
	c.Header("Cache-Control", "no-store")
	c.Data(status, "text/html; charset=utf-8", buf.Bytes())
}

// frame loads what every page shows: the signed-in user and the kill
// switch. It answers false after redirecting an anonymous browser to
// the sign-in form.
func (d *Dashboard) frame(c *gin.Context) (*view, bool) {
	return d.frameWith(c, true)
}

// frameWith is frame, reading the kill switch only when banner is set:
// polled fragments leave it to the banner's own poll.
func (d *Dashboard) frameWith(c *gin.Context, banner bool) (*view, bool) {
	v := &view{TemporalUI: d.opts.TemporalUIURL, Namespace: d.opts.TemporalNamespace,
		Path: c.Request.URL.Path, Query: c.Request.URL.RawQuery, Done: doneMessages[c.Query("done")]}
	var s sessionInfo
	if err := d.api.call(c.Request, http.MethodGet, "/api/session", nil, &s); err != nil {
		var apiErr *APIError
		if errors.As(err, &apiErr) && apiErr.Status == http.StatusUnauthorized {
			if c.GetHeader("HX-Request") != "" {
				c.Header("HX-Redirect", "/login")
				c.Status(http.StatusUnauthorized)
			} else {
				c.Redirect(http.StatusSeeOther, "/login")
			}
			return nil, false
		}
		d.fail(c, v, err)
		return nil, false
	}
	v.User, v.CSRF = s.User, s.CSRFToken
	if banner {
		// A failed read leaves the banner off until its next poll.
		_ = d.api.call(c.Request, http.MethodGet, "/api/kill-switch", nil, &v.KillSwitch)
	}
	return v, true
}

// page adapts a pageFunc: frame, page data, layout.
func (d *Dashboard) page(fn pageFunc) gin.HandlerFunc {
	return func(c *gin.Context) {
		v, ok := d.frame(c)
		if !ok {
			return
		}
		d.show(c, http.StatusOK, v, fn)
	}
}

func (d *Dashboard) show(c *gin.Context, status int, v *view, fn pageFunc) {
	tmpl, err := fn(c, v)
	if err != nil {
		d.fail(c, v, err)
		return
	}
	d.render(c, status, tmpl, "layout", v)
}

// fragment adapts a pageFunc whose template is rendered alone, for the
// parts of a page htmx refreshes.
func (d *Dashboard) fragment(fn pageFunc) gin.HandlerFunc {
	return func(c *gin.Context) {
		v, ok := d.frameWith(c, false)
		if !ok {
			return
		}
		tmpl, err := fn(c, v)
		if err != nil {
			d.fail(c, v, err)
			return
		}
		page, name, _ := strings.Cut(tmpl, "#")
		d.render(c, http.StatusOK, page, name, v)
	}
}

// form adapts a formFunc: on success a 303 to the next page (so a reload
// never repeats the write); on an API refusal the page named by the
// form's "page" route is shown again, with the error beside the form
// named by the posted "form" field.
func (d *Dashboard) form(fn formFunc) gin.HandlerFunc {
	return func(c *gin.Context) {
		v, ok := d.frame(c)
		if !ok {
			return
		}
		next, err := fn(c, v)
		if err != nil {
			d.refuse(c, v, err)
			return
		}
		c.Redirect(http.StatusSeeOther, next)
	}
}

// fail shows an error page with the API's message, or a generic one.
func (d *Dashboard) fail(c *gin.Context, v *view, err error) {
	var apiErr *APIError
	if !errors.As(err, &apiErr) {
		d.log.Error("dashboard page failed", "path", c.Request.URL.Path, "err", err)
		apiErr = &APIError{Status: http.StatusInternalServerError, Code: "internal_error", Message: "something went wrong; the error was logged"}
	}
	v.Title, v.Data = "Error", apiErr
	d.render(c, apiErr.Status, "error", "layout", v)
}

// WorkflowURL links a workflow to its page in the Temporal Web UI.
func (v *view) WorkflowURL(id string) string {
	if id == "" {
		return ""
	}
	return v.TemporalUI + "/namespaces/" + url.PathEscape(v.Namespace) + "/workflows/" + url.PathEscape(id)
}
