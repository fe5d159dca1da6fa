package web

import (
	"net/http"
	"net/url"
	"strconv"
	"time"

	"github.com/gin-gonic/gin"
)

// playbook is a playbook as the API shows it.
type playbook struct {
	ID          string         `json:"id"`
	Name        string         `json:"name"`
	Description string         `json:"description"`
	Version     string         `json:"version"`
	Enabled     bool           `json:"enabled"`
	Builtin     bool           `json:"builtin"`
	Triggers    map[string]any `json:"triggers"`
	Variables   map[string]any `json:"variables"`
	Steps       []struct {
		Name       string         `json:"name"`
		Action     string         `json:"action"`
		Condition  string         `json:"condition"`
		Output     string         `json:"output"`
		Parameters map[string]any `json:"parameters"`
	} `json:"steps"`
	CreatedAt time.Time `json:"created_at"`
	UpdatedAt time.Time `json:"updated_at"`
}

// execution is a playbook run as the API shows it.
type execution struct {
	ExecutionID    string         `json:"execution_id"`
	PlaybookID     string         `json:"playbook_id"`
	PlaybookName   string         `json:"playbook_name"`
	Version        string         `json:"version"`
	IncidentID     string         `json:"incident_id"`
	Status         string         `json:"status"`
	TriggeredBy    string         `json:"triggered_by"`
	StartedAt      time.Time      `json:"started_at"`
	CompletedAt    *time.Time     `json:"completed_at"`
	StepsCompleted int            `json:"steps_completed"`
	StepsTotal     int            `json:"steps_total"`
	DurationMS     int64          `json:"duration_ms"`
	Error          string         `json:"error"`
	Verdict        map[string]any `json:"verdict"`
	WorkflowID     string         `json:"workflow_id"`
	Steps          []struct {
		Name        string         `json:"name"`
		Kind        string         `json:"kind"`
		Status      string         `json:"status"`
		StartedAt   *time.Time     `json:"started_at"`
		CompletedAt *time.Time     `json:"completed_at"`
		Output      map[string]any `json:"output"`
		Error       string         `json:"error"`
	} `json:"steps"`
}

// Running says whether the run page keeps polling.
func (e execution) Running() bool { return e.Status == "running" }

type versionPage struct {
	Data []struct {
		Version   string    `json:"version"`
		CreatedBy string    `json:"created_by"`
		CreatedAt time.Time `json:"created_at"`
		Current   bool      `json:"current"`
	} `json:"data"`
	Meta struct {
		Page    int   `json:"page"`
		PerPage int   `json:"per_page"`
		Total   int64 `json:"total"`
	} `json:"meta"`
}

type playbookData struct {
	Playbook   playbook
	Versions   versionPage
	Prev, Next string
	Runs       []execution
}

func (d *Dashboard) playbooks(c *gin.Context, v *view) (string, error) {
	v.Title, v.Nav = "Playbooks", "playbooks"
	var rows []playbook
	if err := d.api.call(c.Request, http.MethodGet, "/api/playbooks", nil, &rows); err != nil {
		return "", err
	}
	v.Data = rows
	return "playbooks", nil
}

func (d *Dashboard) playbookDetail(c *gin.Context, v *view) (string, error) {
	id := url.PathEscape(c.Param("id"))
	data := &playbookData{}
	if err := d.api.call(c.Request, http.MethodGet, "/api/playbooks/"+id, nil, &data.Playbook); err != nil {
		return "", err
	}
	v.Title, v.Nav, v.Data = data.Playbook.Name, "playbooks", data
	page := c.DefaultQuery("vpage", "1")
	vq := url.Values{"page": {page}, "per_page": {"10"}}
	if err := d.api.callRaw(c.Request, http.MethodGet, "/api/playbooks/"+id+"/versions"+query(vq), &data.Versions); err != nil {
		return "", err
	}
	m := data.Versions.Meta
	if m.Page > 1 {
		data.Prev = "/playbooks/" + id + "?vpage=" + strconv.Itoa(m.Page-1) + "#versions"
	}
	if int64(m.Page*m.PerPage) < m.Total {
		data.Next = "/playbooks/" + id + "?vpage=" + strconv.Itoa(m.Page+1) + "#versions"
	}
	if err := d.api.call(c.Request, http.MethodGet, "/api/playbooks/"+id+"/executions", nil, &data.Runs); err != nil {
		return "", err
	}
	if len(data.Runs) > 20 {
		data.Runs = data.Runs[:20]
	}
	return "playbook", nil
}

func (d *Dashboard) restoreVersion(c *gin.Context, _ *view) (string, error) {
	id := url.PathEscape(c.Param("id"))
	path := "/api/playbooks/" + id + "/versions/" + url.PathEscape(c.Param("version")) + "/restore"
	if err := d.api.call(c.Request, http.MethodPost, path, struct{}{}, nil); err != nil {
		return "", err
	}
	return "/playbooks/" + id + "?done=restored", nil
}

// runPlaybook starts a run on the incident named by its id or number and
// shows the run's progress page.
func (d *Dashboard) runPlaybook(c *gin.Context, _ *view) (string, error) {
	id := url.PathEscape(c.Param("id"))
	incID, err := d.incidentRef(c, c.PostForm("incident"))
	if err != nil {
		return "", err
	}
	var out execution
	body := map[string]string{"incident_id": incID}
	if err := d.api.call(c.Request, http.MethodPost, "/api/playbooks/"+id+"/run", body, &out); err != nil {
		return "", err
	}
	return "/playbooks/" + id + "/runs/" + url.PathEscape(out.ExecutionID) + "?done=run_started", nil
}

// incidentRef turns what the user typed (an incident's id or its number)
// into the id the API takes, looking the number up through the list.
func (d *Dashboard) incidentRef(c *gin.Context, ref string) (string, error) {
	if ref == "" || !looksLikeNumber(ref) {
		return ref, nil // the API validates the id and names the field
	}
	var pg incidentPage
	if err := d.api.callRaw(c.Request, http.MethodGet, "/api/incidents"+query(url.Values{"q": {ref}, "per_page": {"5"}}), &pg); err != nil {
		return "", err
	}
	for _, r := range pg.Data {
		if r.IncidentNumber == ref {
			return r.ID, nil
		}
	}
	return "", &APIError{Status: http.StatusUnprocessableEntity, Code: "validation_error", Message: "no incident numbered " + ref,
		Details: map[string]any{"incident": "no incident with this number"}}
}

// looksLikeNumber tells an incident number (INC-2026-0042) from an id,
// which is a 36-character UUID.
func looksLikeNumber(ref string) bool {
	return len(ref) < 36
}

func (d *Dashboard) playbookRun(c *gin.Context, v *view) (string, error) {
	if err := d.loadRun(c, v); err != nil {
		return "", err
	}
	v.Title, v.Nav = "Playbook run", "playbooks"
	return "playbookrun", nil
}

func (d *Dashboard) playbookRunProgress(c *gin.Context, v *view) (string, error) {
	return "playbookrun#progress", d.loadRun(c, v)
}

func (d *Dashboard) loadRun(c *gin.Context, v *view) error {
	var e execution
	path := "/api/playbooks/" + url.PathEscape(c.Param("id")) + "/executions/" + url.PathEscape(c.Param("run"))
	if err := d.api.call(c.Request, http.MethodGet, path, nil, &e); err != nil {
		return err
	}
	v.Data = e
	return nil
}
