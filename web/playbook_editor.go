package web

import (
	"net/http"
	"net/url"
	"strconv"

	"github.com/gin-gonic/gin"
)

// problem is one error or warning the API's playbook validation reports.
type problem struct {
	Line    int    `json:"line"`
	Message string `json:"message"`
}

// validation is what the editor lists under the YAML.
type validation struct {
	Checked  bool
	Valid    bool
	Errors   []problem
	Warnings []problem
	// Err is a refusal of the check itself (signed out, rate limited).
	Err *APIError
}

type editorData struct {
	ID, Name string // empty for a new playbook
	Content  string
	Check    validation
}

// starterPlaybook is the text a new playbook starts from.
const starterPlaybook = `name: my playbook
description: what it does
triggers:
  incident_type: malware
  auto_run: false
steps:
  - name: isolate
    action: isolate_host
    parameters:
      host_id: "{{ incident.raw_data.host_id }}"
`

// playbookEditor shows the YAML of a playbook (or a new one) in an
// editor; after a refused save it shows the text that was posted.
func (d *Dashboard) playbookEditor(c *gin.Context, v *view) (string, error) {
	v.Nav = "playbooks"
	data := &editorData{ID: c.Param("id"), Content: starterPlaybook}
	v.Data, v.Title = data, "New playbook"
	if data.ID != "" {
		var p playbook
		if err := d.api.call(c.Request, http.MethodGet, "/api/playbooks/"+url.PathEscape(data.ID), nil, &p); err != nil {
			return "", err
		}
		data.Name, v.Title = p.Name, "Edit "+p.Name
		res, err := d.api.send(c.Request, http.MethodGet, "/api/playbooks/"+url.PathEscape(data.ID)+"/export", nil)
		if err != nil {
			return "", err
		}
		data.Content = res.body.String()
	}
	if c.Request.Method == http.MethodPost {
		data.Content = c.PostForm("content")
	}
	if v.FormErr != nil {
		data.Check = checkOf(v.FormErr)
	}
	return "playbookeditor", nil
}

// checkOf reads the problems out of a refused save, so they show at
// their lines as the live check shows them.
func checkOf(e *APIError) validation {
	out := validation{Checked: true, Err: e}
	if e.Code != "validation_error" {
		return out
	}
	out.Errors, out.Warnings = problems(e.Details["errors"]), problems(e.Details["warnings"])
	if len(out.Errors) > 0 {
		out.Err = nil
	}
	return out
}

func problems(v any) []problem {
	list, _ := v.([]any)
	var out []problem
	for _, item := range list {
		m, _ := item.(map[string]any)
		line, _ := m["line"].(float64)
		msg, _ := m["message"].(string)
		out = append(out, problem{Line: int(line), Message: msg})
	}
	return out
}

// validatePlaybook answers the editor's check as the user types: the
// API parses the text and reports errors and warnings by line.
func (d *Dashboard) validatePlaybook(c *gin.Context, v *view) (string, error) {
	var out struct {
		Valid    bool      `json:"valid"`
		Errors   []problem `json:"errors"`
		Warnings []problem `json:"warnings"`
	}
	check := validation{Checked: true}
	err := d.api.call(c.Request, http.MethodPost, "/api/playbooks/validate", map[string]string{"content": c.PostForm("content")}, &out)
	if apiErr, ok := err.(*APIError); ok {
		check.Err = apiErr
	} else if err != nil {
		return "", err
	} else {
		check.Valid, check.Errors, check.Warnings = out.Valid, out.Errors, out.Warnings
	}
	v.Data = &editorData{Check: check}
	return "playbookeditor#problems", nil
}

// savePlaybook creates a playbook from the YAML or saves it as a new
// version of an existing one.
func (d *Dashboard) savePlaybook(c *gin.Context, _ *view) (string, error) {
	body := map[string]string{"content": c.PostForm("content")}
	id := c.Param("id")
	if id == "" {
		var out playbook
		if err := d.api.call(c.Request, http.MethodPost, "/api/playbooks", body, &out); err != nil {
			return "", err
		}
		id = out.ID
	} else if err := d.api.call(c.Request, http.MethodPut, "/api/playbooks/"+url.PathEscape(id), body, nil); err != nil {
		return "", err
	}
	return "/playbooks/" + url.PathEscape(id) + "?done=saved", nil
}

// LineOf names a problem's place for the list: "line 4", or "whole playbook" when the API gives no line.
func (p problem) LineOf() string {
	if p.Line <= 0 {
		return "whole playbook"
	}
	return "line " + strconv.Itoa(p.Line)
}
