package api

import (
	"errors"
	"net/http"
	"strings"

	"github.com/gin-gonic/gin"

	"github.com/vigil-soc/vigil/store"
)

const principalKey = "vigil.principal"

// authenticate resolves the bearer key on every /api request. The store is
// read each time, so a revoked key or a disabled user is refused at once.
func (s *server) authenticate(c *gin.Context) {
	key, found := bearerToken(c.GetHeader("Authorization"))
	if !found {
		c.Header("WWW-Authenticate", `Bearer realm="vigil"`)
		s.abortWithError(c, newError(http.StatusUnauthorized, CodeUnauthorized,
			"missing API key: send Authorization: Bearer <key>"))
		return
	}
	p, err := s.store.AuthenticateKey(c.Request.Context(), key)
	if err != nil {
		if errors.Is(err, store.ErrUnauthenticated) {
			c.Header("WWW-Authenticate", `Bearer realm="vigil", error="invalid_token"`)
		}
		s.abortWithError(c, err)
		return
	}
	c.Set(principalKey, p)
	c.Next()
}

func bearerToken(header string) (string, bool) {
	scheme, token, found := strings.Cut(strings.TrimSpace(header), " ")
	if !found || !strings.EqualFold(scheme, "Bearer") {
		return "", false
	}
	token = strings.TrimSpace(token)
	return token, token != ""
}

// principal returns the authenticated caller; the auth middleware
// guarantees one on every /api route.
func principal(c *gin.Context) *store.Principal {
	v, _ := c.Get(principalKey)
	p, _ := v.(*store.Principal)
	return p
}

// requireRole refuses callers whose role ranks below min.
func (s *server) requireRole(min string) gin.HandlerFunc {
	return func(c *gin.Context) {
		p := principal(c)
		if p == nil || store.RoleRank(p.User.Role) < store.RoleRank(min) {
			have := ""
			if p != nil {
				have = p.User.Role
			}
			s.abortWithError(c, &Error{Status: http.StatusForbidden, Code: CodeForbidden,
				Message: "this operation needs role " + min + " or higher",
				Details: map[string]any{"required_role": min, "your_role": have}})
			return
		}
		c.Next()
	}
}
