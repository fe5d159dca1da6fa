package web

import (
	"net/http"
	"net/url"
	"strings"

	"github.com/gin-gonic/gin"
)

// actionFilters are the list parameters the actions page passes to the API.
var actionFilters = []string{"status", "action_type", "approval_level"}

type actionsData struct {
	Filter url.Values
	Rows   []action
	Types  []actionType
	Err    *APIError
}

func (d *Dashboard) actionsList(c *gin.Context, v *view) (string, error) {
	v.Title, v.Nav = "Actions", "actions"
	data := &actionsData{Filter: url.Values{}}
	v.Data = data
	for _, k := range actionFilters {
		if val := c.Query(k); val != "" {
			data.Filter.Set(k, val)
		}
	}
	if err := d.api.call(c.Request, http.MethodGet, "/api/actions/types", nil, &data.Types); err != nil {
		return "", err
	}
	f := clone(data.Filter)
	f.Set("limit", "200")
	if err := d.api.call(c.Request, http.MethodGet, "/api/actions"+query(f), nil, &data.Rows); err != nil {
		// A bad filter is the user's to fix: show it above the list.
		if apiErr, ok := err.(*APIError); ok && apiErr.Status < 500 {
			data.Err = apiErr
			return "actions", nil
		}
		return "", err
	}
	return "actions", nil
}

type actionData struct {
	Action action
	Type   *actionType
}

// CanRollBack says whether to offer the rollback form; the API decides.
func (d actionData) CanRollBack() bool {
	return d.Type != nil && d.Type.SupportsRollback && d.Action.Status == "completed" && d.Action.RolledBackBy == ""
}

func (d *Dashboard) actionDetail(c *gin.Context, v *view) (string, error) {
	data := &actionData{}
	if err := d.api.call(c.Request, http.MethodGet, "/api/actions/"+url.PathEscape(c.Param("id")), nil, &data.Action); err != nil {
		return "", err
	}
	v.Title, v.Nav, v.Data = "Action "+strings.ReplaceAll(data.Action.ActionType, "_", " "), "actions", data
	var types []actionType
	if err := d.api.call(c.Request, http.MethodGet, "/api/actions/types", nil, &types); err != nil {
		return "", err
	}
	for i := range types {
		if types[i].Name == data.Action.ActionType {
			data.Type = &types[i]
		}
	}
	return "action", nil
}

// rollback asks the API to roll the action back and shows the rollback
// action with what the API answered: completed, or waiting for approval.
func (d *Dashboard) rollback(c *gin.Context, _ *view) (string, error) {
	var out struct {
		RollbackActionID string `json:"rollback_action_id"`
		Status           string `json:"status"`
	}
	body := map[string]string{"reason": strings.TrimSpace(c.PostForm("reason"))}
	if err := d.api.call(c.Request, http.MethodPost, "/api/actions/"+url.PathEscape(c.Param("id"))+"/rollback", body, &out); err != nil {
		return "", err
	}
	done := "rb_" + out.Status
	if _, known := doneMessages[done]; !known {
		done = "rolled_back"
	}
	return "/actions/" + url.PathEscape(out.RollbackActionID) + "?done=" + done, nil
}
