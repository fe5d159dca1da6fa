package api

import (
	"errors"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/vigil-soc/vigil/store"
)

// maxKeyLifetime bounds expires_at so a typo cannot mint an eternal key
// that looks temporary.
const maxKeyLifetime = 5 * 365 * 24 * time.Hour

type apiKeyRequest struct {
	Name      *string    `json:"name"`
	Scopes    []string   `json:"scopes"`
	ExpiresAt *time.Time `json:"expires_at"`
	UserID    *string    `json:"user_id"`
}

// apiKeyView never carries the key or its hash.
type apiKeyView struct {
	ID         string     `json:"id"`
	UserID     string     `json:"user_id"`
	Name       string     `json:"name"`
	KeyPrefix  string     `json:"key_prefix"`
	Scopes     []string   `json:"scopes"`
	ExpiresAt  *time.Time `json:"expires_at"`
	LastUsedAt *time.Time `json:"last_used_at"`
	RevokedAt  *time.Time `json:"revoked_at,omitempty"`
	CreatedAt  time.Time  `json:"created_at"`
}

func keyView(k *store.APIKey) apiKeyView {
	scopes := k.Scopes.V
	if scopes == nil {
		scopes = []string{}
	}
	return apiKeyView{ID: k.ID, UserID: k.UserID, Name: k.Name, KeyPrefix: k.KeyPrefix, Scopes: scopes,
		ExpiresAt: utcPtr(k.ExpiresAt), LastUsedAt: utcPtr(k.LastUsedAt), RevokedAt: utcPtr(k.RevokedAt),
		CreatedAt: k.CreatedAt.UTC()}
}

func isAdmin(c *gin.Context) bool { return principal(c).User.Role == store.RoleAdmin }

// listAPIKeys shows the caller's keys; an admin sees everyone's, or one
// user's with ?user_id=.
func (s *server) listAPIKeys(c *gin.Context) (reply, error) {
	owner := principal(c).User.ID
	if isAdmin(c) {
		owner = c.Query("user_id")
	}
	page, err := parsePagingOnly(c)
	if err != nil {
		return reply{}, err
	}
	keys, total, err := s.store.ListAPIKeys(c, owner, page)
	if err != nil {
		return reply{}, err
	}
	out := make([]apiKeyView, 0, len(keys))
	for i := range keys {
		out = append(out, keyView(&keys[i]))
	}
	return paged(out, page, total), nil
}

// ownKey loads a key the caller may manage; others' keys are "not found"
// to non-admins so key ids cannot be probed.
func (s *server) ownKey(c *gin.Context) (*store.APIKey, error) {
	k, err := s.store.GetAPIKey(c, c.Param("id"))
	if err != nil {
		return nil, orNotFound(err, "api key")
	}
	if k.UserID != principal(c).User.ID && !isAdmin(c) {
		return nil, notFound("api key")
	}
	return k, nil
}

func (s *server) getAPIKey(c *gin.Context) (reply, error) {
	k, err := s.ownKey(c)
	if err != nil {
		return reply{}, err
	}
	return ok(keyView(k)), nil
}

func (s *server) createAPIKey(c *gin.Context) (reply, error) {
	var req apiKeyRequest
	if err := decodeJSON(c, &req, false); err != nil {
		return reply{}, err
	}
	bad := map[string]string{}
	name := requiredText(bad, "name", req.Name, 100)
	owner := principal(c).User
	if req.UserID != nil && *req.UserID != owner.ID {
		if !isAdmin(c) {
			return reply{}, newError(http.StatusForbidden, CodeForbidden, "only an admin can create keys for another user")
		}
		u, err := s.store.GetUser(c, *req.UserID)
		if err != nil {
			bad["user_id"] = "no such user"
		} else {
			owner = *u
		}
	}
	allowed := RoleScopes(owner.Role)
	for _, sc := range req.Scopes {
		if !slices.Contains(Scopes, sc) {
			bad["scopes"] = "unknown scope " + sc + "; known scopes: " + strings.Join(Scopes, ", ")
			break
		}
		if !slices.Contains(allowed, sc) {
			bad["scopes"] = "scope " + sc + " exceeds role " + owner.Role
			break
		}
	}
	if req.ExpiresAt != nil {
		switch d := time.Until(*req.ExpiresAt); {
		case d <= 0:
			bad["expires_at"] = "must be in the future"
		case d > maxKeyLifetime:
			bad["expires_at"] = "must be within 5 years"
		}
	}
	checkOutlives(bad, principal(c), req.ExpiresAt)
	if len(bad) > 0 {
		return reply{}, validationError(bad)
	}
	if err := checkNoEscalation(principal(c), req.Scopes); err != nil {
		return reply{}, err
	}
	k, key, err := s.store.CreateAPIKey(c, owner.ID, name, uniqueSorted(req.Scopes), req.ExpiresAt)
	if err != nil {
		return reply{}, err
	}
	setAuditTarget(c, k.ID)
	setAuditDetails(c, map[string]any{"owner": owner.Username, "key_prefix": k.KeyPrefix, "scopes": k.Scopes.V})
	return created(struct {
		apiKeyView
		Key string `json:"key"`
	}{keyView(k), key}), nil
}

func (s *server) revokeAPIKey(c *gin.Context) (reply, error) {
	k, err := s.ownKey(c)
	if err != nil {
		return reply{}, err
	}
	if err := s.store.RevokeAPIKey(c, k.ID); err != nil {
		if errors.Is(err, store.ErrNotFound) {
			return reply{}, newError(http.StatusConflict, CodeConflict, "api key already revoked")
		}
		return reply{}, err
	}
	setAuditDetails(c, map[string]any{"key_prefix": k.KeyPrefix})
	return noContent(), nil
}

func uniqueSorted(in []string) []string {
	out := slices.Clone(in)
	slices.Sort(out)
	return slices.Compact(out)
}

// checkOutlives refuses a key that would outlive the expiring key creating
// it; otherwise a key could renew itself for ever.
func checkOutlives(bad map[string]string, p *store.Principal, expiresAt *time.Time) {
	if p.Key == nil || p.Key.ExpiresAt == nil || bad["expires_at"] != "" {
		return
	}
	limit := p.Key.ExpiresAt.UTC().Format(time.RFC3339Nano)
	switch {
	case expiresAt == nil:
		bad["expires_at"] = "is required: the key making this request expires at " + limit + " and cannot create a key that outlives it"
	case expiresAt.Truncate(time.Microsecond).After(*p.Key.ExpiresAt):
		bad["expires_at"] = "must be no later than " + limit + ", when the key making this request expires"
	}
}
