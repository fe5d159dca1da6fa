package api

import (
	"errors"
	"net/http"
	"net/mail"
	"regexp"
	"slices"
	"strings"

	"github.com/gin-gonic/gin"

	"github.com/vigil-soc/vigil/store"
)

var usernamePattern = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]{1,63}$`)

type userRequest struct {
	Username    *string `json:"username"`
	Email       *string `json:"email"`
	Role        *string `json:"role"`
	DisplayName *string `json:"display_name"`
	Enabled     *bool   `json:"enabled"`
	Password    *string `json:"password"`
}

// validate checks the fields present; create demands username, email, role.
func (r userRequest) validate(create bool) map[string]string {
	bad := map[string]string{}
	if create {
		requiredText(bad, "username", r.Username, 0)
		requiredText(bad, "email", r.Email, 0)
		requiredText(bad, "role", r.Role, 0)
	}
	if r.Username != nil && bad["username"] == "" && !usernamePattern.MatchString(*r.Username) {
		bad["username"] = "must be 2-64 letters, digits, dots, dashes or underscores"
	}
	if r.Email != nil && bad["email"] == "" {
		if a, err := mail.ParseAddress(*r.Email); err != nil || a.Address != strings.TrimSpace(*r.Email) {
			bad["email"] = "must be a plain e-mail address such as jane@example.com"
		}
	}
	if r.Role != nil && bad["role"] == "" && store.RoleRank(*r.Role) < 0 {
		bad["role"] = "must be one of " + strings.Join(store.Roles, ", ")
	}
	if r.DisplayName != nil && len([]rune(*r.DisplayName)) > 200 {
		bad["display_name"] = "must be at most 200 characters"
	}
	if r.Password != nil {
		if msg := store.CheckPassword(*r.Password); msg != "" {
			bad["password"] = msg
		}
	}
	return bad
}

func (s *server) listUsers(c *gin.Context) (reply, error) {
	page, err := parsePagingOnly(c)
	if err != nil {
		return reply{}, err
	}
	users, total, err := s.store.ListUsers(c, page)
	if err != nil {
		return reply{}, err
	}
	return paged(users, page, total), nil
}

func (s *server) currentUser(c *gin.Context) (reply, error) {
	return ok(principal(c).User), nil
}

func (s *server) getUser(c *gin.Context) (reply, error) {
	u, err := s.store.GetUser(c, c.Param("id"))
	if err != nil {
		return reply{}, orNotFound(err, "user")
	}
	return ok(u), nil
}

func (s *server) createUser(c *gin.Context) (reply, error) {
	var req userRequest
	if err := decodeJSON(c, &req, false); err != nil {
		return reply{}, err
	}
	if bad := req.validate(true); len(bad) > 0 {
		return reply{}, validationError(bad)
	}
	in := store.NewUser{Username: *req.Username, Email: strings.TrimSpace(*req.Email), Role: *req.Role}
	if req.DisplayName != nil {
		in.DisplayName = *req.DisplayName
	}
	if req.Password != nil {
		in.Password = *req.Password
	}
	u, err := s.store.CreateUser(c, in)
	if errors.Is(err, store.ErrConflict) {
		return reply{}, newError(http.StatusConflict, CodeConflict, "a user with that username or email already exists")
	}
	if err != nil {
		return reply{}, err
	}
	if req.Enabled != nil && !*req.Enabled {
		if u, err = s.store.UpdateUser(c, u.ID, store.UserUpdate{Enabled: req.Enabled}); err != nil {
			return reply{}, err
		}
	}
	setAuditTarget(c, u.ID)
	setAuditDetails(c, map[string]any{"username": u.Username, "role": u.Role})
	return created(u), nil
}

func (s *server) updateUser(c *gin.Context) (reply, error) {
	var req userRequest
	if err := decodeJSON(c, &req, false); err != nil {
		return reply{}, err
	}
	bad := req.validate(false)
	if req.Username != nil {
		bad["username"] = "cannot be changed"
	}
	if len(bad) > 0 {
		return reply{}, validationError(bad)
	}
	u, err := s.store.UpdateUser(c, c.Param("id"), store.UserUpdate{
		Email: req.Email, Role: req.Role, DisplayName: req.DisplayName, Enabled: req.Enabled, Password: req.Password,
	})
	if errors.Is(err, store.ErrConflict) {
		return reply{}, newError(http.StatusConflict, CodeConflict, "a user with that email already exists")
	}
	if err != nil {
		return reply{}, orNotFound(err, "user")
	}
	setAuditDetails(c, changedFields(req))
	return ok(u), nil
}

// changedFields names what an update touched, never the values of secrets.
func changedFields(r userRequest) map[string]any {
	var fields []string
	d := map[string]any{}
	if r.Email != nil {
		fields = append(fields, "email")
	}
	if r.Role != nil {
		fields, d["role"] = append(fields, "role"), *r.Role
	}
	if r.DisplayName != nil {
		fields = append(fields, "display_name")
	}
	if r.Enabled != nil {
		fields, d["enabled"] = append(fields, "enabled"), *r.Enabled
	}
	if r.Password != nil {
		fields = append(fields, "password")
	}
	slices.Sort(fields)
	d["fields"] = fields
	return d
}

func (s *server) deleteUser(c *gin.Context) (reply, error) {
	if err := s.store.DeleteUser(c, c.Param("id")); err != nil {
		return reply{}, orNotFound(err, "user")
	}
	return noContent(), nil
}

type passwordChangeRequest struct {
	CurrentPassword string `json:"current_password"`
	NewPassword     string `json:"new_password"`
}

// changeOwnPassword lets any signed-in user replace their password after
// proving the current one; their other sessions end.
func (s *server) changeOwnPassword(c *gin.Context) (reply, error) {
	var req passwordChangeRequest
	if err := decodeJSON(c, &req, false); err != nil {
		return reply{}, err
	}
	if msg := store.CheckPassword(req.NewPassword); msg != "" {
		return reply{}, validationError(map[string]string{"new_password": msg})
	}
	me := principal(c).User
	if _, err := s.store.VerifyLogin(c, me.Username, req.CurrentPassword); err != nil {
		return reply{}, validationError(map[string]string{"current_password": "is not correct"})
	}
	if _, err := s.store.UpdateUser(c, me.ID, store.UserUpdate{Password: &req.NewPassword}); err != nil {
		return reply{}, err
	}
	setAuditTarget(c, me.ID)
	return ok(gin.H{"password_changed": true}), nil
}
