package web

import (
	"net/http"
	"net/url"

	"github.com/gin-gonic/gin"
)

// huntsPage is the hunts list: every field as the API answers it.
func (d *Dashboard) hunts(c *gin.Context, v *view) (string, error) {
	v.Title, v.Nav = "Hunts", "hunts"
	var page struct {
		Data []map[string]any `json:"data"`
	}
	q := url.Values{"per_page": {"100"}}
	if s := c.Query("status"); s != "" {
		q.Set("status", s)
	}
	if err := d.api.callRaw(c.Request, http.MethodGet, "/api/v1/hunts"+query(q), &page); err != nil {
		return "", err
	}
	v.Data = page.Data
	return "hunts", nil
}

// huntData is a hunt with its schedule (next runs) and its latest run.
type huntData struct {
	Hunt    map[string]any
	Results map[string]any
}

func (d *Dashboard) huntDetail(c *gin.Context, v *view) (string, error) {
	id := url.PathEscape(c.Param("id"))
	data := &huntData{}
	if err := d.api.call(c.Request, http.MethodGet, "/api/v1/hunts/"+id, nil, &data.Hunt); err != nil {
		return "", err
	}
	if err := d.api.call(c.Request, http.MethodGet, "/api/v1/hunts/"+id+"/results", nil, &data.Results); err != nil {
		return "", err
	}
	name, _ := data.Hunt["name"].(string)
	v.Title, v.Nav, v.Data = name, "hunts", data
	return "hunt", nil
}

func (d *Dashboard) executeHunt(c *gin.Context, _ *view) (string, error) {
	id := url.PathEscape(c.Param("id"))
	err := d.api.call(c.Request, http.MethodPost, "/api/v1/hunts/"+id+"/execute", nil, nil)
	return "/hunts/" + id + "?done=hunt_run", err
}

// triggerHuntSchedule runs the hunt's Temporal Schedule now, as its
// trigger in the Temporal UI does.
func (d *Dashboard) triggerHuntSchedule(c *gin.Context, _ *view) (string, error) {
	id := url.PathEscape(c.Param("id"))
	err := d.api.call(c.Request, http.MethodPost, "/api/v1/hunts/"+id+"/schedule/trigger", nil, nil)
	return "/hunts/" + id + "?done=hunt_run", err
}

func (d *Dashboard) promoteFinding(c *gin.Context, _ *view) (string, error) {
	id := url.PathEscape(c.Param("id"))
	var out struct {
		IncidentID string `json:"incident_id"`
	}
	err := d.api.call(c.Request, http.MethodPost, "/api/v1/hunts/"+id+"/findings/"+url.PathEscape(c.Param("finding"))+"/promote", nil, &out)
	return "/incidents/" + url.PathEscape(out.IncidentID) + "?done=promoted", err
}
