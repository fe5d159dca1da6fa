package api

import (
	"context"
	"errors"
	"html/template"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/gin-gonic/gin"
	"github.com/ulule/limiter/v3"
	"github.com/ulule/limiter/v3/drivers/store/memory"

	"github.com/vigil-soc/vigil/store"
)

// Failed-login throttling: per account name and per client address, in
// fixed windows. A successful login clears the account's counter.
var (
	loginAccountRate = limiter.Rate{Period: 15 * time.Minute, Limit: 5}
	loginAddressRate = limiter.Rate{Period: 15 * time.Minute, Limit: 20}
)

// Default session lifetimes when the general setting cannot be read.
const (
	defaultSessionIdle     = 30 * time.Minute
	defaultSessionAbsolute = 12 * time.Hour
)

func newLoginThrottle() limiter.Store {
	return memory.NewStoreWithOptions(limiter.StoreOptions{Prefix: "vigil-login", CleanUpInterval: time.Minute})
}

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
	c.Header("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'")
	c.Status(http.StatusOK)
	_ = loginTemplate.Execute(c.Writer, data)
}

// login signs a user in from a JSON body or the HTML form. Every attempt
// is audited with its real outcome; the HTML form gets failures back as a
// redirect to the form with the message.
func (s *server) login(c *gin.Context) (reply, error) {
	html := wantsHTML(c)
	r, err := s.doLogin(c, html)
	status := r.status
	if err != nil {
		status = toAPIError(err).Status
	}
	v, _ := c.Get(auditDetailsKey)
	details, _ := v.(map[string]any)
	target := c.GetString(auditTargetKey)
	s.recordAudit(c, "auth.login", target, status, details)
	if err != nil && html {
		return redirect("/login?error=" + url.QueryEscape(toAPIError(err).Message)), nil
	}
	return r, err
}

func (s *server) doLogin(c *gin.Context, html bool) (reply, error) {
	var req loginRequest
	if html {
		if !sameOrigin(c) {
			return reply{}, newError(http.StatusForbidden, CodeCSRF, "login form posted from another origin")
		}
		req.Login, req.Password = c.PostForm("login"), c.PostForm("password")
	} else if err := decodeJSON(c, &req, false); err != nil {
		return reply{}, err
	}
	login := strings.TrimSpace(firstNonEmpty(req.Login, req.Username, req.Email))
	if login == "" || req.Password == "" {
		return reply{}, validationError(map[string]string{"login": "username or email and password are required"})
	}
	setAuditDetails(c, map[string]any{"login": login})
	account := s.store.LoginAccount(c, login)
	if id, ok := strings.CutPrefix(account, "user:"); ok {
		c.Set(auditTargetKey, id)
	}
	accountKey, addressKey := "acct|"+account, "addr|"+c.ClientIP()
	for _, k := range []struct {
		key  string
		rate limiter.Rate
	}{{accountKey, loginAccountRate}, {addressKey, loginAddressRate}} {
		lc, err := s.loginThrottle.Peek(c, k.key, k.rate)
		if err != nil {
			return reply{}, err
		}
		// Peek does not count this attempt, so the budget is spent once
		// the failures recorded reach the limit.
		if lc.Remaining <= 0 {
			wait := max(lc.Reset-time.Now().Unix(), 1)
			c.Header("Retry-After", strconv.FormatInt(wait, 10))
			return reply{}, newError(http.StatusTooManyRequests, CodeRateLimited,
				"too many failed sign-ins; try again in "+strconv.FormatInt(wait, 10)+"s")
		}
	}
	u, err := s.store.VerifyLogin(c, login, req.Password)
	if errors.Is(err, store.ErrUnauthenticated) {
		_, _ = s.loginThrottle.Get(c, accountKey, loginAccountRate)
		_, _ = s.loginThrottle.Get(c, addressKey, loginAddressRate)
		return reply{}, newError(http.StatusUnauthorized, CodeInvalidCredentials, "invalid username or password")
	}
	if err != nil {
		return reply{}, err
	}
	_, _ = s.loginThrottle.Reset(c, accountKey, loginAccountRate)
	lifetimes := s.sessionLifetimes(c)
	sess, token, err := s.store.CreateSession(c, u.ID, c.ClientIP(), c.Request.UserAgent(), lifetimes.Absolute)
	if err != nil {
		return reply{}, err
	}
	u.LastLoginAt = &sess.CreatedAt
	c.Set(principalKey, &store.Principal{User: *u, Session: sess})
	s.setSessionCookie(c, token, int(lifetimes.Absolute.Seconds()))
	if html {
		return redirect("/login"), nil
	}
	return ok(gin.H{
		"user": u, "csrf_token": sess.CSRFToken, "expires_at": sess.ExpiresAt.UTC(),
		"idle_timeout_seconds": int(lifetimes.Idle.Seconds()),
	}), nil
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

// sameOrigin accepts a form post whose Origin (or Referer) names this host,
// or that carries neither header (non-browser clients).
func sameOrigin(c *gin.Context) bool {
	origin := c.GetHeader("Origin")
	if origin == "" {
		origin = c.GetHeader("Referer")
	}
	if origin == "" {
		return true
	}
	u, err := url.Parse(origin)
	return err == nil && u.Host == c.Request.Host
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
<html lang="en"><head><meta charset="utf-8"><title>Vigil: sign in</title>
<style>body{font-family:system-ui,sans-serif;max-width:22rem;margin:4rem auto}label,input,button{display:block;width:100%;margin:.4rem 0}</style>
</head><body>
<h1>Vigil</h1>
{{if .User}}
<p>Signed in as <strong>{{.User}}</strong>.</p>
<form method="post" action="/logout"><input type="hidden" name="csrf_token" value="{{.CSRF}}"><button type="submit">Sign out</button></form>
{{else}}
{{if .Error}}<p role="alert">{{.Error}}</p>{{end}}
<form method="post" action="/login">
<label>Username or email <input name="login" autocomplete="username" required></label>
<label>Password <input name="password" type="password" autocomplete="current-password" required></label>
<button type="submit">Sign in</button>
</form>
{{end}}
</body></html>
`))
