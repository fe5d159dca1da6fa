package web

import (
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/gin-gonic/gin"
)

// setting is one setting as GET /api/settings shows it.
type setting struct {
	Key       string         `json:"key"`
	Value     map[string]any `json:"value"`
	UpdatedAt *time.Time     `json:"updated_at"`
	UpdatedBy string         `json:"updated_by"`
}

// settingField is one control of a setting's form, typed by the value
// the API answered with.
type settingField struct {
	Name, Kind string // Kind: bool, number, text, list, secret
	Value      any
	// Set says a write-only secret is stored (shown masked, never sent).
	Set bool
}

// Fields lists the setting's controls in name order; read-only members
// the API derives (api_key_set) are folded into their secret.
func (s setting) Fields() []settingField {
	names := make([]string, 0, len(s.Value))
	for k := range s.Value {
		if k != "api_key_set" {
			names = append(names, k)
		}
	}
	slices.Sort(names)
	out := make([]settingField, 0, len(names))
	for _, n := range names {
		f := settingField{Name: n, Value: s.Value[n]}
		switch x := s.Value[n].(type) {
		case bool:
			f.Kind = "bool"
		case float64:
			f.Kind, f.Value = "number", strconv.FormatFloat(x, 'f', -1, 64)
		case []any:
			items := make([]string, 0, len(x))
			for _, it := range x {
				if s, ok := it.(string); ok {
					items = append(items, s)
				}
			}
			f.Kind, f.Value = "list", strings.Join(items, "\n")
		default:
			f.Kind = "text"
		}
		if n == "api_key" {
			f.Kind, f.Value, f.Set = "secret", "", s.Value["api_key_set"] == true
		}
		out = append(out, f)
	}
	return out
}

func (d *Dashboard) adminSettings(c *gin.Context, v *view) (string, error) {
	v.Title, v.Nav = "Settings", "admin"
	var rows []setting
	if err := d.api.call(c.Request, http.MethodGet, "/api/settings", nil, &rows); err != nil {
		return "", err
	}
	v.Data = rows
	return "adminsettings", nil
}

// saveSetting writes one setting from its form. The current value tells
// each field's type; a number that does not parse goes as typed, so the
// API names the field. An empty secret keeps the stored one.
func (d *Dashboard) saveSetting(c *gin.Context, _ *view) (string, error) {
	key := url.PathEscape(c.Param("key"))
	var cur setting
	if err := d.api.call(c.Request, http.MethodGet, "/api/settings/"+key, nil, &cur); err != nil {
		return "", err
	}
	body := map[string]any{}
	for _, f := range cur.Fields() {
		raw := c.PostForm("f_" + f.Name)
		switch f.Kind {
		case "bool":
			body[f.Name] = raw == "true"
		case "number":
			if n, err := strconv.ParseInt(strings.TrimSpace(raw), 10, 64); err == nil {
				body[f.Name] = n
			} else {
				body[f.Name] = raw
			}
		case "list":
			body[f.Name] = strings.FieldsFunc(raw, func(r rune) bool { return r == ',' || r == '\n' || r == '\r' || r == ' ' })
		case "secret":
			switch {
			case c.PostForm("clear_"+f.Name) == "true":
				body[f.Name] = ""
			case raw != "":
				body[f.Name] = raw
			}
		default:
			body[f.Name] = raw
		}
	}
	if err := d.api.call(c.Request, http.MethodPut, "/api/settings/"+key, body, nil); err != nil {
		return "", err
	}
	return "/admin/settings?done=saved#setting-" + key, nil
}
