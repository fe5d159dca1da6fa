package web

import (
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/gin-gonic/gin"
)

// incidentDetail is GET /api/incidents/:id.
type incidentDetail struct {
	incidentRow
	Description        string         `json:"description"`
	Assignee           string         `json:"assignee"`
	RawData            map[string]any `json:"raw_data"`
	Verdict            *verdict       `json:"verdict"`
	RecommendedActions []string       `json:"recommended_actions"`
	Resolution         string         `json:"resolution"`
}

type verdict struct {
	Classification string  `json:"classification"`
	Confidence     float64 `json:"confidence"`
	Category       string  `json:"category"`
	Reasoning      string  `json:"reasoning"`
}

// actionType is an entry of GET /api/actions/types.
type actionType struct {
	Name                 string `json:"name"`
	Description          string `json:"description"`
	Category             string `json:"category"`
	SupportsRollback     bool   `json:"supports_rollback"`
	RollbackAction       string `json:"rollback_action"`
	DefaultApprovalLevel string `json:"default_approval_level"`
	Parameters           []struct {
		Name     string `json:"name"`
		Type     string `json:"type"`
		Required bool   `json:"required"`
	} `json:"parameters"`
}

// actionForm is one request form: a type and its parameter fields,
// prefilled from the incident's raw data where a field matches.
type actionForm struct {
	Type        actionType
	Recommended bool
	Values      map[string]string
}

// triageRecord is an entry of GET /api/incidents/:id/triages.
type triageRecord struct {
	TriageID           string              `json:"triage_id"`
	Status             string              `json:"status"`
	Verdict            *verdict            `json:"verdict"`
	RecommendedActions []string            `json:"recommended_actions"`
	Analyzer           string              `json:"analyzer"`
	Model              string              `json:"model"`
	FallbackReason     string              `json:"fallback_reason"`
	Intel              []map[string]any    `json:"intel"`
	Indicators         map[string][]string `json:"indicators"`
	Error              string              `json:"error"`
	RequestedBy        string              `json:"requested_by"`
	DurationMS         int64               `json:"duration_ms"`
	StartedAt          *time.Time          `json:"started_at"`
	WorkflowID         string              `json:"workflow_id"`
}

// timelineEntry is one entry of GET /api/incidents/:id/timeline.
type timelineEntry struct {
	At         time.Time `json:"at"`
	Kind       string    `json:"kind"`
	Event      string    `json:"event"`
	Actor      string    `json:"actor"`
	Summary    string    `json:"summary"`
	Outcome    string    `json:"outcome"`
	Ref        string    `json:"ref"`
	WorkflowID string    `json:"workflow_id"`
}

// incidentRun is a playbook run of GET /api/incidents/:id/executions.
type incidentRun struct {
	ExecutionID    string     `json:"execution_id"`
	PlaybookID     string     `json:"playbook_id"`
	PlaybookName   string     `json:"playbook_name"`
	Version        string     `json:"version"`
	Status         string     `json:"status"`
	TriggeredBy    string     `json:"triggered_by"`
	StartedAt      time.Time  `json:"started_at"`
	CompletedAt    *time.Time `json:"completed_at"`
	StepsCompleted int        `json:"steps_completed"`
	StepsTotal     int        `json:"steps_total"`
	DurationMS     int64      `json:"duration_ms"`
	WorkflowID     string     `json:"workflow_id"`
}

type incidentData struct {
	Incident incidentDetail
	Actions  []action
	Forms    []actionForm
	Triages  []triageRecord
	Timeline []timelineEntry
	Runs     []incidentRun
	// Runbooks are the knowledge base articles for the incident's type.
	Runbooks []map[string]any
}

func (d *Dashboard) incident(c *gin.Context, v *view) (string, error) {
	id := url.PathEscape(c.Param("id"))
	data := &incidentData{}
	if err := d.api.call(c.Request, http.MethodGet, "/api/incidents/"+id, nil, &data.Incident); err != nil {
		return "", err
	}
	v.Title, v.Nav, v.Data = data.Incident.IncidentNumber, "incidents", data
	if err := d.api.call(c.Request, http.MethodGet, "/api/incidents/"+id+"/actions", nil, &data.Actions); err != nil {
		return "", err
	}
	slices.SortFunc(data.Actions, func(a, b action) int { return b.RequestedAt.Compare(a.RequestedAt) })
	if err := d.api.call(c.Request, http.MethodGet, "/api/incidents/"+id+"/triages", nil, &data.Triages); err != nil {
		return "", err
	}
	var types []actionType
	if err := d.api.call(c.Request, http.MethodGet, "/api/actions/types", nil, &types); err != nil {
		return "", err
	}
	data.Forms = actionForms(types, data.Incident)
	if err := d.api.call(c.Request, http.MethodGet, "/api/incidents/"+id+"/timeline", nil, &data.Timeline); err != nil {
		return "", err
	}
	if err := d.api.call(c.Request, http.MethodGet, "/api/incidents/"+id+"/executions", nil, &data.Runs); err != nil {
		return "", err
	}
	data.Runbooks = d.runbooksFor(c, data.Incident.IncidentType)
	return "incident", nil
}

// actionForms puts the recommended action types first.
func actionForms(types []actionType, inc incidentDetail) []actionForm {
	var rec, rest []actionForm
	for _, t := range types {
		f := actionForm{Type: t, Values: map[string]string{},
			Recommended: slices.Contains(inc.RecommendedActions, t.Name)}
		for _, p := range t.Parameters {
			f.Values[p.Name] = rawValue(inc.RawData, p.Name)
		}
		if f.Recommended {
			rec = append(rec, f)
		} else {
			rest = append(rest, f)
		}
	}
	return append(rec, rest...)
}

// rawFieldAliases are the raw data fields that commonly carry a
// parameter under another name, as the built-in playbooks read them.
var rawFieldAliases = map[string][]string{
	"host_id":    {"host_id", "hostname", "HostnameField", "event.HostnameField", "result.host"},
	"message_id": {"message_id", "id"},
	"sender":     {"sender", "data.sender", "from"},
}

func rawValue(raw map[string]any, param string) string {
	names := rawFieldAliases[param]
	if names == nil {
		names = []string{param}
	}
	for _, n := range names {
		var cur any = raw
		for _, part := range strings.Split(n, ".") {
			m, ok := cur.(map[string]any)
			if !ok {
				cur = nil
				break
			}
			cur = m[part]
		}
		switch x := cur.(type) {
		case string:
			if x != "" {
				return x
			}
		case float64:
			return fmt.Sprint(x)
		}
	}
	return ""
}

// incidentActions is the incident's action table alone, for polling.
func (d *Dashboard) incidentActions(c *gin.Context, v *view) (string, error) {
	data := &incidentData{}
	data.Incident.ID = c.Param("id")
	v.Data = data
	err := d.api.call(c.Request, http.MethodGet, "/api/incidents/"+url.PathEscape(c.Param("id"))+"/actions", nil, &data.Actions)
	slices.SortFunc(data.Actions, func(a, b action) int { return b.RequestedAt.Compare(a.RequestedAt) })
	return "incident#actionstable", err
}

func (d *Dashboard) triage(c *gin.Context, _ *view) (string, error) {
	id := url.PathEscape(c.Param("id"))
	var out struct {
		Status string `json:"status"`
	}
	body := map[string]bool{"force": c.PostForm("force") == "true"}
	if err := d.api.call(c.Request, http.MethodPost, "/api/incidents/"+id+"/triage", body, &out); err != nil {
		return "", err
	}
	done := "triaged"
	if out.Status != "completed" {
		done = "triage_run"
	}
	return "/incidents/" + id + "?done=" + done, nil
}

func (d *Dashboard) updateIncident(c *gin.Context, _ *view) (string, error) {
	id := url.PathEscape(c.Param("id"))
	body := map[string]string{}
	for _, k := range []string{"status", "severity", "resolution", "assignee"} {
		// The form carries what it showed; a field left as it was is not
		// sent, so the audit trail and the timeline name real changes.
		if orig, shown := c.GetPostForm("was_" + k); shown && orig == c.PostForm(k) {
			continue
		}
		if v, ok := c.GetPostForm(k); ok && (v != "" || k == "resolution" || k == "assignee") {
			body[k] = v
		}
	}
	if len(body) == 0 {
		return "/incidents/" + id, nil
	}
	if err := d.api.call(c.Request, http.MethodPut, "/api/incidents/"+id, body, nil); err != nil {
		return "", err
	}
	return "/incidents/" + id + "?done=updated", nil
}

// requestAction posts the action with the parameter fields that were
// filled in; the API validates them against the type.
func (d *Dashboard) requestAction(c *gin.Context, _ *view) (string, error) {
	id := url.PathEscape(c.Param("id"))
	params := map[string]any{}
	if err := c.Request.ParseForm(); err != nil {
		return "", &APIError{Status: http.StatusBadRequest, Code: "bad_request", Message: "the form could not be read"}
	}
	for k, vals := range c.Request.PostForm {
		if name, ok := strings.CutPrefix(k, "param_"); ok && len(vals) > 0 && strings.TrimSpace(vals[0]) != "" {
			params[name] = strings.TrimSpace(vals[0])
		}
	}
	body := map[string]any{"action": c.PostForm("action"), "parameters": params}
	if err := d.api.call(c.Request, http.MethodPost, "/api/incidents/"+id+"/actions", body, nil); err != nil {
		return "", err
	}
	return "/incidents/" + id + "?done=requested#actions", nil
}
