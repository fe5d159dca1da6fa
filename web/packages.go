package web

import (
	"encoding/json"
	"errors"
	"html/template"
	"net/http"
	"net/url"
	"strings"

	"github.com/gin-gonic/gin"
)

// packagesData is the packages page: what is installed and, after a
// preview, what an import would do.
type packagesData struct {
	Packages []map[string]any
	Preview  map[string]any
	// Text and Conflict are the previewed package and conflict mode,
	// posted again when the import is confirmed.
	Text     string
	Conflict string
}

func (d *Dashboard) packages(c *gin.Context, v *view) (string, error) {
	v.Title, v.Nav = "Content packages", "packages"
	data := &packagesData{Conflict: "skip"}
	if err := d.api.call(c.Request, http.MethodGet, "/api/v1/packages", nil, &data.Packages); err != nil {
		return "", err
	}
	v.Data = data
	return "packages", nil
}

// errNotJSON refuses a pasted package that is not JSON before it is sent.
var errNotJSON = &APIError{Status: http.StatusBadRequest, Code: "malformed_json", Message: "the package is not JSON"}

// importBody is the import request a posted form asks for.
func importBody(c *gin.Context, dryRun bool) (map[string]any, error) {
	text := strings.TrimSpace(c.PostForm("package"))
	if !json.Valid([]byte(text)) {
		return nil, errNotJSON
	}
	return map[string]any{"package": json.RawMessage(text), "conflict_resolution": c.PostForm("conflict_resolution"),
		"dry_run": dryRun}, nil
}

// previewPackage shows what importing the posted package would create,
// update, rename or skip, and lets the user confirm.
func (d *Dashboard) previewPackage(c *gin.Context, v *view) (string, error) {
	tmpl, err := d.packages(c, v)
	if err != nil {
		return "", err
	}
	data := v.Data.(*packagesData)
	data.Text, data.Conflict = c.PostForm("package"), c.PostForm("conflict_resolution")
	body, err := importBody(c, true)
	if err == nil {
		err = d.api.call(c.Request, http.MethodPost, "/api/v1/packages/import", body, &data.Preview)
	}
	var apiErr *APIError
	if errors.As(err, &apiErr) {
		v.FormKey, v.FormErr = "import", apiErr
		return tmpl, nil
	}
	return tmpl, err
}

func (d *Dashboard) importPackage(c *gin.Context, _ *view) (string, error) {
	body, err := importBody(c, false)
	if err != nil {
		return "", err
	}
	var out struct {
		Package struct {
			Name string `json:"name"`
		} `json:"package"`
	}
	if err := d.api.call(c.Request, http.MethodPost, "/api/v1/packages/import", body, &out); err != nil {
		return "", err
	}
	return "/packages/" + url.PathEscape(out.Package.Name) + "?done=package_imported", nil
}

func (d *Dashboard) packageDetail(c *gin.Context, v *view) (string, error) {
	var p map[string]any
	if err := d.api.call(c.Request, http.MethodGet, "/api/v1/packages/"+url.PathEscape(c.Param("name")), nil, &p); err != nil {
		return "", err
	}
	name, _ := p["name"].(string)
	v.Title, v.Nav, v.Data = name, "packages", p
	return "package", nil
}

func (d *Dashboard) deletePackage(c *gin.Context, _ *view) (string, error) {
	err := d.api.call(c.Request, http.MethodDelete, "/api/v1/packages/"+url.PathEscape(c.Param("name")), nil, nil)
	return "/packages?done=package_deleted", err
}

// knowledgeData is the knowledge page: a search's hits or the list.
type knowledgeData struct {
	Query    string
	Hits     []knowledgeHit
	Articles []map[string]any
}

// knowledgeHit is a search result with its snippet made safe to show:
// the text escaped, the matched words (between ** marks) highlighted.
type knowledgeHit struct {
	Article map[string]any
	Snippet template.HTML
}

func (d *Dashboard) knowledge(c *gin.Context, v *view) (string, error) {
	v.Title, v.Nav = "Knowledge base", "knowledge"
	data := &knowledgeData{Query: c.Query("q")}
	v.Data = data
	if data.Query == "" {
		var page struct {
			Data []map[string]any `json:"data"`
		}
		q := url.Values{"per_page": {"100"}}
		if t := c.Query("incident_type"); t != "" {
			q.Set("incident_type", t)
		}
		err := d.api.callRaw(c.Request, http.MethodGet, "/api/v1/knowledge"+query(q), &page)
		data.Articles = page.Data
		return "knowledge", err
	}
	var hits []map[string]any
	if err := d.api.call(c.Request, http.MethodGet, "/api/v1/knowledge"+query(url.Values{"q": {data.Query}}), nil, &hits); err != nil {
		return "", err
	}
	for _, h := range hits {
		s, _ := h["snippet"].(string)
		data.Hits = append(data.Hits, knowledgeHit{Article: h, Snippet: highlight(s)})
	}
	return "knowledge", nil
}

// highlight escapes a snippet and marks the words between ** pairs.
func highlight(s string) template.HTML {
	parts := strings.Split(s, "**")
	var b strings.Builder
	for i, p := range parts {
		if i%2 == 1 && i < len(parts)-1 {
			b.WriteString("<mark>" + template.HTMLEscapeString(p) + "</mark>")
			continue
		}
		b.WriteString(template.HTMLEscapeString(p))
	}
	return template.HTML(b.String())
}

// articleData is one article with its HTML, which the API rendered from
// Markdown and sanitized.
type articleData struct {
	Article map[string]any
	HTML    template.HTML
}

func (d *Dashboard) knowledgeArticle(c *gin.Context, v *view) (string, error) {
	var a map[string]any
	if err := d.api.call(c.Request, http.MethodGet, "/api/v1/knowledge/"+url.PathEscape(c.Param("id")), nil, &a); err != nil {
		return "", err
	}
	html, _ := a["content_html"].(string)
	title, _ := a["title"].(string)
	// The API sanitized content_html with an allow-list policy; it is the
	// only HTML the dashboard takes from the API as is.
	v.Title, v.Nav, v.Data = title, "knowledge", &articleData{Article: a, HTML: template.HTML(html)}
	return "knowledgearticle", nil
}

func (d *Dashboard) createArticle(c *gin.Context, _ *view) (string, error) {
	body := map[string]any{"title": c.PostForm("title"), "content": c.PostForm("content")}
	if t := strings.TrimSpace(c.PostForm("incident_types")); t != "" {
		body["incident_types"] = strings.Fields(strings.ReplaceAll(t, ",", " "))
	}
	var out struct {
		ID string `json:"id"`
	}
	if err := d.api.call(c.Request, http.MethodPost, "/api/v1/knowledge", body, &out); err != nil {
		return "", err
	}
	return "/knowledge/" + url.PathEscape(out.ID) + "?done=knowledge_saved", nil
}

// runbooksFor lists the knowledge base articles for an incident type; a
// failed read leaves the incident page without them rather than failing.
func (d *Dashboard) runbooksFor(c *gin.Context, incidentType string) []map[string]any {
	if incidentType == "" {
		return nil
	}
	var page struct {
		Data []map[string]any `json:"data"`
	}
	q := url.Values{"incident_type": {incidentType}, "per_page": {"20"}}
	if err := d.api.callRaw(c.Request, http.MethodGet, "/api/v1/knowledge"+query(q), &page); err != nil {
		return nil
	}
	return page.Data
}
