package web

import (
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/gin-gonic/gin"
)

// policyRule is a rule as the API shows it.
type policyRule struct {
	ID            string    `json:"id"`
	Name          string    `json:"name"`
	Description   string    `json:"description"`
	Condition     string    `json:"condition"`
	Action        string    `json:"action"`
	ApprovalLevel string    `json:"approval_level"`
	Priority      int       `json:"priority"`
	Enabled       bool      `json:"enabled"`
	CreatedAt     time.Time `json:"created_at"`
	UpdatedAt     time.Time `json:"updated_at"`
}

// conditionError is where the API says a condition fails to compile,
// with the offending line of the text and a caret under the column.
type conditionError struct {
	Line, Column int
	Message      string
	Source       string
	Caret        string
}

type policiesData struct {
	Rules []policyRule
	// Form is the rule in the create or edit form: the posted values
	// after a refusal, so nothing typed is lost.
	Form     policyRule
	CondErr  *conditionError
	Outcomes []string
	Levels   []string
}

var (
	policyOutcomes = []string{"require_approval", "auto_approve", "deny"}
	policyLevels   = []string{"analyst", "senior", "manager"}
)

func (d *Dashboard) adminPolicies(c *gin.Context, v *view) (string, error) {
	v.Title, v.Nav = "Policy rules", "admin"
	data := &policiesData{Outcomes: policyOutcomes, Levels: policyLevels, Form: policyRule{Enabled: true, Action: "require_approval"}}
	v.Data = data
	if err := d.api.call(c.Request, http.MethodGet, "/api/policies", nil, &data.Rules); err != nil {
		return "", err
	}
	d.keepPosted(c, v, data)
	return "adminpolicies", nil
}

func (d *Dashboard) adminPolicy(c *gin.Context, v *view) (string, error) {
	v.Nav = "admin"
	data := &policiesData{Outcomes: policyOutcomes, Levels: policyLevels}
	v.Data = data
	if err := d.api.call(c.Request, http.MethodGet, "/api/policies/"+url.PathEscape(c.Param("id")), nil, &data.Form); err != nil {
		return "", err
	}
	v.Title = "Policy rule " + data.Form.Name
	d.keepPosted(c, v, data)
	return "adminpolicy", nil
}

// keepPosted puts a refused form's values back and places the
// condition's error at the line and column the API reported.
func (d *Dashboard) keepPosted(c *gin.Context, v *view, data *policiesData) {
	if c.Request.Method != http.MethodPost || v.FormErr == nil || v.FormKey != "rule" {
		return
	}
	id := data.Form.ID
	data.Form = postedRule(c)
	data.Form.ID = id
	pos, _ := v.FormErr.Details["condition_position"].(map[string]any)
	if pos == nil {
		return
	}
	line, _ := pos["line"].(float64)
	col, _ := pos["column"].(float64)
	ce := &conditionError{Line: int(line), Column: int(col)}
	msg, _ := v.FormErr.Details["condition"].(string)
	ce.Message = strings.TrimPrefix(msg, fmt.Sprintf("line %d, column %d: ", ce.Line, ce.Column))
	if lines := strings.Split(data.Form.Condition, "\n"); ce.Line >= 1 && ce.Line <= len(lines) {
		ce.Source = lines[ce.Line-1]
		if ce.Column >= 1 {
			ce.Caret = strings.Repeat(" ", min(ce.Column-1, len([]rune(ce.Source)))) + "^"
		}
	}
	data.CondErr = ce
}

// postedRule reads the rule form.
func postedRule(c *gin.Context) policyRule {
	p, _ := strconv.Atoi(strings.TrimSpace(c.PostForm("priority")))
	return policyRule{Name: c.PostForm("name"), Description: c.PostForm("description"), Condition: c.PostForm("condition"),
		Action: c.PostForm("action"), ApprovalLevel: c.PostForm("approval_level"), Priority: p, Enabled: c.PostForm("enabled") == "true"}
}

// ruleBody is the API request for the posted form; a priority that is
// not a number goes as typed so the API names the field.
func ruleBody(c *gin.Context) map[string]any {
	r := postedRule(c)
	body := map[string]any{"name": r.Name, "description": r.Description, "condition": r.Condition, "action": r.Action,
		"approval_level": r.ApprovalLevel, "enabled": r.Enabled, "priority": r.Priority}
	if raw := strings.TrimSpace(c.PostForm("priority")); raw != "" {
		if _, err := strconv.Atoi(raw); err != nil {
			body["priority"] = raw
		}
	}
	return body
}

func (d *Dashboard) createPolicy(c *gin.Context, _ *view) (string, error) {
	if err := d.api.call(c.Request, http.MethodPost, "/api/policies", ruleBody(c), nil); err != nil {
		return "", err
	}
	return "/admin/policies?done=saved", nil
}

func (d *Dashboard) updatePolicy(c *gin.Context, _ *view) (string, error) {
	id := url.PathEscape(c.Param("id"))
	if err := d.api.call(c.Request, http.MethodPut, "/api/policies/"+id, ruleBody(c), nil); err != nil {
		return "", err
	}
	return "/admin/policies?done=saved", nil
}

func (d *Dashboard) deletePolicy(c *gin.Context, _ *view) (string, error) {
	if err := d.api.call(c.Request, http.MethodDelete, "/api/policies/"+url.PathEscape(c.Param("id")), nil, nil); err != nil {
		return "", err
	}
	return "/admin/policies?done=deleted", nil
}
