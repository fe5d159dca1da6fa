package api

import (
	"crypto/subtle"
	"errors"
	"net/http"
	"strings"

	"github.com/gin-gonic/gin"

	"github.com/vigil-soc/vigil/store"
)

const (
	principalKey  = "vigil.principal"
	authErrKey    = "vigil.auth_error"
	sessionCookie = "vigil_session"
	csrfHeader    = "X-CSRF-Token"
)

// identify resolves the caller from a bearer key or, without one, a
// session cookie. It never aborts: rate limiting and the audit trail need
// to run for anonymous callers too, and requireAuth refuses them later.
// The store is read on every request, so revocation and disabling take
// effect at once on every process.
func (s *server) identify(c *gin.Context) {
	var (
		p   *store.Principal
		err error
	)
	if header := c.GetHeader("Authorization"); header != "" {
		key, ok := bearerToken(header)
		if !ok {
			c.Set(authErrKey, newError(http.StatusUnauthorized, CodeUnauthorized,
				"unsupported Authorization scheme: send Authorization: Bearer <key>"))
			return
		}
		p, err = s.store.AuthenticateKey(c, key)
	} else if token, cerr := c.Cookie(sessionCookie); cerr == nil && token != "" {
		lifetimes := s.sessionLifetimes(c)
		p, err = s.store.AuthenticateSession(c, token, lifetimes.Idle)
	} else {
		return
	}
	if err != nil {
		c.Set(authErrKey, err)
		return
	}
	c.Set(principalKey, p)
}

// requireAuth refuses requests identify could not attribute to anyone.
func (s *server) requireAuth(c *gin.Context) {
	if principal(c) != nil {
		c.Next()
		return
	}
	c.Header("WWW-Authenticate", `Bearer realm="vigil"`)
	if v, ok := c.Get(authErrKey); ok {
		err := v.(error)
		if !errors.Is(err, store.ErrUnauthenticated) {
			var apiErr *Error
			if !errors.As(err, &apiErr) {
				s.abortWithError(c, err)
				return
			}
		}
		s.abortWithError(c, newError(http.StatusUnauthorized, CodeUnauthorized,
			"missing, unknown, revoked or expired credentials"))
		return
	}
	s.abortWithError(c, newError(http.StatusUnauthorized, CodeUnauthorized,
		"missing credentials: send Authorization: Bearer <key> or sign in at /login"))
}

// checkCSRF protects cookie-authenticated state changes: the request must
// echo the session's CSRF token in X-CSRF-Token (or a csrf_token form
// field). Bearer keys are not sent by browsers on their own and need none.
func (s *server) checkCSRF(c *gin.Context) {
	p := principal(c)
	if p == nil || p.Session == nil || isSafeMethod(c.Request.Method) {
		c.Next()
		return
	}
	sent := c.GetHeader(csrfHeader)
	if sent == "" {
		sent = c.PostForm("csrf_token")
	}
	if subtle.ConstantTimeCompare([]byte(sent), []byte(p.Session.CSRFToken)) != 1 {
		s.abortWithError(c, newError(http.StatusForbidden, CodeCSRF,
			"missing or wrong CSRF token: send the session's token in the X-CSRF-Token header"))
		return
	}
	c.Next()
}

func isSafeMethod(m string) bool {
	return m == http.MethodGet || m == http.MethodHead || m == http.MethodOptions
}

func bearerToken(header string) (string, bool) {
	scheme, token, found := strings.Cut(strings.TrimSpace(header), " ")
	if !found || !strings.EqualFold(scheme, "Bearer") {
		return "", false
	}
	token = strings.TrimSpace(token)
	return token, token != ""
}

// principal returns the authenticated caller, or nil.
func principal(c *gin.Context) *store.Principal {
	v, _ := c.Get(principalKey)
	p, _ := v.(*store.Principal)
	return p
}

// principalID names the caller for rate limiting and the audit trail.
func principalID(c *gin.Context) (id, method string) {
	p := principal(c)
	switch {
	case p == nil:
		return "ip:" + c.ClientIP(), "none"
	case p.Key != nil:
		return "key:" + p.Key.ID, "api_key"
	case p.Session == nil:
		// A decision taken in chat, as the user the chat account maps to.
		return "user:" + p.User.ID, "chat"
	default:
		return "session:" + p.Session.ID, "session"
	}
}
