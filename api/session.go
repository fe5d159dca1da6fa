package api

import (
	"context"
	"errors"
	"fmt"
	"html/template"
	"math"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/gin-gonic/gin"

	"github.com/vigil-soc/vigil/store"
)

// maxLoginLength caps the username or e-mail a sign-in names: 254 is the
// longest address SMTP carries and usernames are shorter. A longer one is
// refused with 422 before any lookup or hashing; the refusal depends only
// on the length, so it tells nothing about which accounts exist.
const maxLoginLength = 254

// Default session lifetimes when the general setting cannot be read.
const (
	defaultSessionIdle     = 30 * time.Minute
	defaultSessionAbsolute = 12 * time.Hour
)

// sessionLifetimes reads the idle and absolute limits from the general
// setting, falling back to the defaults.
func (s *server) sessionLifetimes(ctx context.Context) store.SessionLifetimes {
	out := store.SessionLifetimes{Idle: defaultSessionIdle, Absolute: defaultSessionAbsolute}
	if s.settings == nil {
		return out
	}
	g, err := s.settings.General(ctx)
	if err != nil {
		return out
	}
	return store.SessionLifetimes{
		Idle:     time.Duration(g.SessionIdleMinutes) * time.Minute,
		Absolute: time.Duration(g.SessionAbsoluteHours) * time.Hour,
	}
}

type loginRequest struct {
	Username string `json:"username"`
	Email    string `json:"email"`
	Login    string `json:"login"`
	Password string `json:"password"`
}

// wantsHTML tells a browser form post from an API client.
func wantsHTML(c *gin.Context) bool {
	return strings.HasPrefix(c.ContentType(), "application/x-www-form-urlencoded") ||
		strings.HasPrefix(c.ContentType(), "multipart/form-data")
}

func (s *server) loginPage(c *gin.Context) {
	data := loginPageData{Error: c.Query("error")}
	if token, err := c.Cookie(sessionCookie); err == nil {
		if p, err := s.store.AuthenticateSession(c, token, s.sessionLifetimes(c).Idle); err == nil {
			data.User, data.CSRF = p.User.Username, p.Session.CSRFToken
		}
	}
	c.Header("Content-Type", "text/html; charset=utf-8")
	c.Header("X-Frame-Options", "DENY")
	c.Header("Content-Security-Policy", "default-src 'none'; style-src 'self'; form-action 'self'; frame-ancestors 'none'")
	c.Header("X-Content-Type-Options", "nosniff")
	c.Header("Referrer-Policy", "same-origin")
	c.Status(http.StatusOK)
	_ = loginTemplate.Execute(c.Writer, data)
}

// login signs a user in from a JSON body or the HTML form. Every attempt
// is audited with its real outcome; the HTML form gets failures back as a
// redirect to the form with the message.
func (s *server) login(c *gin.Context) (reply, error) {
	form := strings.ToLower(c.ContentType()) == loginForm
	r, err := s.doLogin(c)
	status := r.status
	if err != nil {
		status = toAPIError(err).Status
	}
	v, _ := c.Get(auditDetailsKey)
	details, _ := v.(map[string]any)
	target := c.GetString(auditTargetKey)
	s.recordAudit(c, "auth.login", target, status, details)
	if err != nil && form {
		return redirect("/login?error=" + url.QueryEscape(toAPIError(err).Message)), nil
	}
	return r, err
}

func (s *server) doLogin(c *gin.Context) (reply, error) {
	if !sameOriginPost(c) {
		return reply{}, newError(http.StatusForbidden, CodeCSRF, "sign-in posted from another origin")
	}
	bodyType, err := loginBodyType(c)
	if err != nil {
		return reply{}, err
	}
	var req loginRequest
	if bodyType == loginForm {
		req.Login, req.Password = c.PostForm("login"), c.PostForm("password")
	} else if err := decodeJSON(c, &req, false); err != nil {
		return reply{}, err
	}
	login := strings.TrimSpace(firstNonEmpty(req.Login, req.Username, req.Email))
	if login == "" || req.Password == "" {
		return reply{}, validationError(map[string]string{"login": "username or email and password are required"})
	}
	if utf8.RuneCountInString(login) > maxLoginLength {
		return reply{}, validationError(map[string]string{"login": fmt.Sprintf("must be at most %d characters", maxLoginLength)})
	}
	setAuditDetails(c, map[string]any{"login": login})
	account := s.store.LoginAccount(c, login)
	if id, ok := strings.CutPrefix(account, "user:"); ok {
		c.Set(auditTargetKey, id)
	}
	accountKey, addressKey := "acct|"+account, "addr|"+c.ClientIP()
	if wait, ok := s.loginThrottle.reserve(
		throttleRule{accountKey, loginAccountLimit, loginWindow},
		throttleRule{addressKey, loginAddressLimit, loginWindow},
	); !ok {
		secs := strconv.FormatInt(max(int64(math.Ceil(wait.Seconds())), 1), 10)
		c.Header("Retry-After", secs)
		return reply{}, newError(http.StatusTooManyRequests, CodeRateLimited,
			"too many failed sign-ins; try again in "+secs+"s")
	}
	u, err := s.store.VerifyLogin(c, login, req.Password)
	if errors.Is(err, store.ErrUnauthenticated) {
		// The reservation stands: it is this failure's count.
		return reply{}, newError(http.StatusUnauthorized, CodeInvalidCredentials, "invalid username or password")
	}
	if err != nil {
		s.loginThrottle.release(accountKey)
		s.loginThrottle.release(addressKey)
		return reply{}, err
	}
	s.loginThrottle.reset(accountKey)
	s.loginThrottle.release(addressKey)
	lifetimes := s.sessionLifetimes(c)
	sess, token, err := s.store.CreateSession(c, u.ID, c.ClientIP(), c.Request.UserAgent(), lifetimes.Absolute)
	if err != nil {
		return reply{}, err
	}
	u.LastLoginAt = &sess.CreatedAt
	c.Set(principalKey, &store.Principal{User: *u, Session: sess})
	s.setSessionCookie(c, token, int(lifetimes.Absolute.Seconds()))
	if bodyType == loginForm {
		return redirect("/"), nil
	}
	return ok(gin.H{
		"user": u, "csrf_token": sess.CSRFToken, "expires_at": sess.ExpiresAt.UTC(),
		"idle_timeout_seconds": int(lifetimes.Idle.Seconds()),
	}), nil
}

// currentSession answers who is calling and, for a browser session, the
// session's CSRF token and expiry, which the dashboard puts in its forms.
// Another origin cannot read the answer, so the token stays with the
// pages of this one.
func (s *server) currentSession(c *gin.Context) (reply, error) {
	p := principal(c)
	out := gin.H{"user": p.User}
	if p.Session != nil {
		out["csrf_token"], out["expires_at"] = p.Session.CSRFToken, p.Session.ExpiresAt.UTC()
	}
	return ok(out), nil
}

func (s *server) logout(c *gin.Context) (reply, error) {
	if p := principal(c); p != nil && p.Session != nil {
		if err := s.store.RevokeSession(c, p.Session.ID); err != nil {
			return reply{}, err
		}
		setAuditTarget(c, p.User.ID)
	}
	s.setSessionCookie(c, "", -1)
	if wantsHTML(c) {
		return redirect("/login"), nil
	}
	return ok(gin.H{"logged_out": true}), nil
}

// setSessionCookie writes the HttpOnly, SameSite=Lax session cookie,
// Secure when served over TLS or when configured to be.
func (s *server) setSessionCookie(c *gin.Context, token string, maxAge int) {
	c.SetSameSite(http.SameSiteLaxMode)
	secure := c.Request.TLS != nil || s.opts.SecureCookies
	c.SetCookie(sessionCookie, token, maxAge, "/", "", secure, true)
}

func firstNonEmpty(vals ...string) string {
	for _, v := range vals {
		if v != "" {
			return v
		}
	}
	return ""
}

type loginPageData struct {
	User, CSRF, Error string
}

var loginTemplate = template.Must(template.New("login").Parse(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Vigil: sign in</title><link rel="stylesheet" href="/static/app.css">
</head><body>
<main class="login">
<h1>Vigil</h1>
{{if .User}}
<p>Signed in as <strong>{{.User}}</strong>.</p>
<p><a class="button" href="/">Open the dashboard</a></p>
<form method="post" action="/logout"><input type="hidden" name="csrf_token" value="{{.CSRF}}"><button type="submit" class="secondary">Sign out</button></form>
{{else}}
{{if .Error}}<p class="notice error" role="alert">{{.Error}}</p>{{end}}
<form method="post" action="/login">
<label for="login">Username or email</label><input id="login" name="login" autocomplete="username" required autofocus>
<label for="password">Password</label><input id="password" name="password" type="password" autocomplete="current-password" required>
<button type="submit">Sign in</button>
</form>
{{end}}
</main>
</body></html>
`))
