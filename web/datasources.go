package web

import (
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/gin-gonic/gin"
)

// dataSource is a hunt data source as GET /api/v1/data-sources answers
// it: its credentials are never shown, only whether some are stored.
type dataSource struct {
	Name           string         `json:"name"`
	Kind           string         `json:"kind"`
	Description    string         `json:"description"`
	Config         map[string]any `json:"config"`
	CredentialsSet bool           `json:"credentials_set"`
	UpdatedAt      time.Time      `json:"updated_at"`
}

// Address is where the source points, for the list: its URL, SQLite
// file or engine (a DSN may hold a password, so it is not shown).
func (s dataSource) Address() string {
	for _, k := range []string{"url", "path", "engine"} {
		if v, ok := s.Config[k].(string); ok && v != "" {
			return v
		}
	}
	return ""
}

// sourceTest is the answer of POST /api/v1/data-sources/{name}/test.
type sourceTest struct {
	Name       string `json:"name"`
	OK         bool   `json:"ok"`
	Error      string `json:"error"`
	DurationMs int64  `json:"duration_ms"`
}

type dataSourcesData struct {
	Sources []dataSource
	Edit    *dataSource
	Kinds   []string
	// CredentialNames are the write-only fields the form offers; which
	// ones a kind reads is in the page's help.
	CredentialNames []string
	Test            *sourceTest
}

var (
	sourceKinds     = []string{"sql", "search_index", "siem_search", "log_analytics", "custom"}
	credentialNames = []string{"token", "api_key", "username", "password", "dsn"}
)

func (d *Dashboard) dataSources(c *gin.Context, v *view) (string, error) {
	_, err := d.sourcesPage(c, v, c.Param("name"))
	return "datasources", err
}

// sourcesPage reads the list, and the source named edit for its form.
func (d *Dashboard) sourcesPage(c *gin.Context, v *view, edit string) (*dataSourcesData, error) {
	v.Title, v.Nav = "Data sources", "hunts"
	data := &dataSourcesData{Kinds: sourceKinds, CredentialNames: credentialNames}
	v.Data = data
	if err := d.api.call(c.Request, http.MethodGet, "/api/v1/data-sources", nil, &data.Sources); err != nil {
		return data, err
	}
	if name := edit; name != "" {
		data.Edit = &dataSource{}
		if err := d.api.call(c.Request, http.MethodGet, "/api/v1/data-sources/"+url.PathEscape(name), nil, data.Edit); err != nil {
			return data, err
		}
	}
	return data, nil
}

// dataSourceForm turns the posted form into the API's body: config is a
// JSON object; only the credentials typed in are sent, and none at all
// keeps the stored ones.
func dataSourceForm(c *gin.Context) (map[string]any, error) {
	body := map[string]any{"kind": c.PostForm("kind"), "description": c.PostForm("description")}
	if c.Param("name") == "" {
		body["name"] = strings.TrimSpace(c.PostForm("name"))
	}
	if err := setPostedConfig(c, body); err != nil {
		return nil, err
	}
	creds := map[string]string{}
	for _, n := range credentialNames {
		if s := c.PostForm("cred_" + n); s != "" {
			creds[n] = s
		}
	}
	if len(creds) > 0 {
		body["credentials"] = creds
	}
	return body, nil
}

func (d *Dashboard) saveDataSource(c *gin.Context, _ *view) (string, error) {
	body, err := dataSourceForm(c)
	if err != nil {
		return "", err
	}
	return "/data-sources?done=saved", d.saveForm(c, "/api/v1/data-sources", c.Param("name"), body)
}

func (d *Dashboard) deleteDataSource(c *gin.Context, _ *view) (string, error) {
	err := d.api.call(c.Request, http.MethodDelete, "/api/v1/data-sources/"+url.PathEscape(c.Param("name")), nil, nil)
	return "/data-sources?done=deleted", err
}

// testDataSource runs the source's own check and shows its outcome in
// the answer to the POST (the outcome is not one of the fixed messages).
func (d *Dashboard) testDataSource(c *gin.Context, v *view) (string, error) {
	var res sourceTest
	if err := d.api.call(c.Request, http.MethodPost, "/api/v1/data-sources/"+url.PathEscape(c.Param("name"))+"/test", nil, &res); err != nil {
		return "", err
	}
	data, err := d.sourcesPage(c, v, "")
	data.Test = &res
	return "datasources", err
}
