package web

import (
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/gin-gonic/gin"
)

// userRow is a user as GET /api/users lists it.
type userRow struct {
	ID          string     `json:"id"`
	Username    string     `json:"username"`
	Email       string     `json:"email"`
	Role        string     `json:"role"`
	DisplayName string     `json:"display_name"`
	Enabled     bool       `json:"enabled"`
	LastLoginAt *time.Time `json:"last_login_at"`
	CreatedAt   time.Time  `json:"created_at"`
}

type usersData struct {
	Rows  []userRow
	Pager pager
	Roles []string
}

// roles are offered in the forms; the API checks the value.
var roles = []string{"viewer", "analyst", "senior", "manager", "admin"}

func (d *Dashboard) adminUsers(c *gin.Context, v *view) (string, error) {
	v.Title, v.Nav = "Users", "admin"
	f := formValues(c, "page")
	f.Set("per_page", "50")
	var res struct {
		Data []userRow `json:"data"`
		Meta pageMeta  `json:"meta"`
	}
	if err := d.api.callRaw(c.Request, http.MethodGet, "/api/users"+query(clone(f)), &res); err != nil {
		return "", err
	}
	f.Del("per_page")
	v.Data = &usersData{Rows: res.Data, Pager: pagerOf("/admin/users", f, res.Meta), Roles: roles}
	return "adminusers", nil
}

// createUser posts the new user; the API validates every field.
func (d *Dashboard) createUser(c *gin.Context, _ *view) (string, error) {
	body := map[string]any{}
	for _, k := range []string{"username", "email", "role", "display_name", "password"} {
		if val := strings.TrimSpace(c.PostForm(k)); val != "" || k != "display_name" && k != "password" {
			body[k] = val
		}
	}
	if err := d.api.call(c.Request, http.MethodPost, "/api/users", body, nil); err != nil {
		return "", err
	}
	return "/admin/users?done=user_created", nil
}

// updateUser changes a user's role or turns the account on or off.
func (d *Dashboard) updateUser(c *gin.Context, _ *view) (string, error) {
	body := map[string]any{}
	if r := c.PostForm("role"); r != "" {
		body["role"] = r
	}
	if e := c.PostForm("enabled"); e != "" {
		body["enabled"] = e == "true"
	}
	if err := d.api.call(c.Request, http.MethodPut, "/api/users/"+url.PathEscape(c.Param("id")), body, nil); err != nil {
		return "", err
	}
	return "/admin/users?done=user_updated", nil
}

// apiKeyRow is a key as GET /api/api-keys lists it.
type apiKeyRow struct {
	ID         string     `json:"id"`
	UserID     string     `json:"user_id"`
	Name       string     `json:"name"`
	KeyPrefix  string     `json:"key_prefix"`
	Scopes     []string   `json:"scopes"`
	ExpiresAt  *time.Time `json:"expires_at"`
	LastUsedAt *time.Time `json:"last_used_at"`
	RevokedAt  *time.Time `json:"revoked_at"`
	CreatedAt  time.Time  `json:"created_at"`
}

type keysData struct {
	Rows   []apiKeyRow
	Pager  pager
	Users  map[string]string // id → username, for an admin's list
	Scopes []string
	// NewKey is the key just created, shown this once.
	NewKey *struct {
		apiKeyRow
		Key string `json:"key"`
	}
}

// scopes are offered as checkboxes; the API checks them against the role.
var scopes = []string{"read", "write", "actions:execute", "actions:approve", "admin"}

func (d *Dashboard) adminKeys(c *gin.Context, v *view) (string, error) {
	v.Title, v.Nav = "API keys", "admin"
	data, _ := v.Data.(*keysData)
	if data == nil {
		data = &keysData{}
	}
	data.Scopes = scopes
	v.Data = data
	f := formValues(c, "page")
	f.Set("per_page", "50")
	var res struct {
		Data []apiKeyRow `json:"data"`
		Meta pageMeta    `json:"meta"`
	}
	if err := d.api.callRaw(c.Request, http.MethodGet, "/api/api-keys"+query(clone(f)), &res); err != nil {
		return "", err
	}
	f.Del("per_page")
	data.Rows, data.Pager = res.Data, pagerOf("/admin/api-keys", f, res.Meta)
	if v.User.AtLeast("admin") {
		var users struct {
			Data []userRow `json:"data"`
		}
		if err := d.api.callRaw(c.Request, http.MethodGet, "/api/users?per_page=100", &users); err != nil {
			return "", err
		}
		data.Users = map[string]string{}
		for _, u := range users.Data {
			data.Users[u.ID] = u.Username
		}
	}
	return "adminkeys", nil
}

// createKey creates a key and shows it once, on the answer to the POST.
func (d *Dashboard) createKey(c *gin.Context, v *view) (string, error) {
	body := map[string]any{"name": strings.TrimSpace(c.PostForm("name")), "scopes": c.PostFormArray("scope")}
	if u := c.PostForm("user_id"); u != "" {
		body["user_id"] = u
	}
	if exp := c.PostForm("expires_on"); exp != "" {
		t, err := time.Parse(time.DateOnly, exp)
		if err != nil {
			return "", &APIError{Status: http.StatusUnprocessableEntity, Code: "validation_error",
				Message: "the expiry date could not be read", Details: map[string]any{"expires_at": "must be a date such as 2027-01-31"}}
		}
		body["expires_at"] = t.UTC().Format(time.RFC3339)
	}
	data := &keysData{}
	if err := d.api.call(c.Request, http.MethodPost, "/api/api-keys", body, &data.NewKey); err != nil {
		return "", err
	}
	v.Data = data
	return d.adminKeys(c, v)
}

func (d *Dashboard) revokeKey(c *gin.Context, _ *view) (string, error) {
	if err := d.api.call(c.Request, http.MethodDelete, "/api/api-keys/"+url.PathEscape(c.Param("id")), nil, nil); err != nil {
		return "", err
	}
	return "/admin/api-keys?done=key_revoked", nil
}
