package api_test

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/vigil-soc/vigil/store"
)

const testPassword = "correct horse battery staple"

func randomSuffix() string {
	b := make([]byte, 6)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// session is a browser-like client: a cookie jar and the CSRF token.
type session struct {
	client *http.Client
	csrf   string
	user   string
}

func newBrowser(t *testing.T) *http.Client {
	t.Helper()
	jar, _ := cookiejar.New(nil)
	return &http.Client{Jar: jar, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
}

// userWithPassword creates a user who can sign in.
func userWithPassword(t *testing.T, role string) *store.User {
	t.Helper()
	name := role + "-" + randomSuffix()
	u, err := env.store.CreateUser(context.Background(), store.NewUser{
		Username: name, Email: name + "@example.com", Role: role, Password: testPassword,
	})
	if err != nil {
		t.Fatal(err)
	}
	return u
}

func loginAs(t *testing.T, role string) *session {
	t.Helper()
	u := userWithPassword(t, role)
	s := &session{client: newBrowser(t), user: u.Username}
	r := s.call(t, http.MethodPost, "/login", map[string]any{"username": u.Username, "password": testPassword}, false)
	expectStatus(t, r, http.StatusOK)
	s.csrf, _ = r.data()["csrf_token"].(string)
	if s.csrf == "" {
		t.Fatalf("login gave no CSRF token: %s", r.Raw)
	}
	return s
}

func (s *session) call(t *testing.T, method, path string, body any, withCSRF bool) response {
	t.Helper()
	headers := map[string]string{}
	if withCSRF {
		headers["X-CSRF-Token"] = s.csrf
	}
	return doRequest(t, s.client, env.server.URL, method, path, "", body, headers)
}

func TestSessionLoginCookieAndCSRF(t *testing.T) {
	s := loginAs(t, store.RoleAnalyst)
	u, _ := url.Parse(env.server.URL)
	cookies := s.client.Jar.Cookies(u)
	if len(cookies) != 1 || cookies[0].Name != "vigil_session" {
		t.Fatalf("cookies after login: %v", cookies)
	}
	res, err := newBrowser(t).Post(env.server.URL+"/login", "application/json",
		strings.NewReader(`{"username":"`+s.user+`","password":"`+testPassword+`"}`))
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	setCookie := res.Header.Get("Set-Cookie")
	for _, attr := range []string{"HttpOnly", "SameSite=Lax", "Path=/"} {
		if !strings.Contains(setCookie, attr) {
			t.Errorf("session cookie lacks %s: %s", attr, setCookie)
		}
	}
	if strings.Contains(setCookie, "Secure") {
		t.Error("cookie marked Secure on plain HTTP without configuration")
	}

	me := s.call(t, http.MethodGet, "/api/users/me", nil, false)
	expectStatus(t, me, http.StatusOK)
	if me.data()["username"] != s.user {
		t.Fatalf("/api/users/me = %v", me.data())
	}
	if _, ok := me.data()["password_hash"]; ok || strings.Contains(string(me.Raw), "$2a$") {
		t.Fatal("password hash leaked")
	}
	body := map[string]any{"incident_type": "x", "source": "browser", "severity": "low"}
	r := s.call(t, http.MethodPost, "/api/incidents", body, false)
	expectStatus(t, r, http.StatusForbidden)
	if r.errCode() != "csrf_failed" {
		t.Fatalf("cookie write without CSRF token: %s", r.Raw)
	}
	expectStatus(t, s.call(t, http.MethodPost, "/api/incidents", body, true), http.StatusCreated)

	expectStatus(t, s.call(t, http.MethodPost, "/logout", nil, false), http.StatusForbidden)
	expectStatus(t, s.call(t, http.MethodPost, "/logout", nil, true), http.StatusOK)
	expectStatus(t, s.call(t, http.MethodGet, "/api/users/me", nil, false), http.StatusUnauthorized)
}

func TestSessionIdleAndAbsoluteExpiry(t *testing.T) {
	for name, column := range map[string]string{"idle": "last_seen_at", "absolute": "expires_at"} {
		t.Run(name, func(t *testing.T) {
			s := loginAs(t, store.RoleViewer)
			expectStatus(t, s.call(t, http.MethodGet, "/api/users/me", nil, false), http.StatusOK)
			u, _ := env.store.UserByUsername(context.Background(), s.user)
			env.store.DB().Model(&store.Session{}).Where("user_id = ?", u.ID).
				Update(column, time.Now().Add(-13*time.Hour))
			expectStatus(t, s.call(t, http.MethodGet, "/api/users/me", nil, false), http.StatusUnauthorized)
		})
	}
}

func TestLoginFailuresAreUniformAndThrottled(t *testing.T) {
	u := userWithPassword(t, store.RoleAnalyst)
	b := newBrowser(t)
	wrong := doRequest(t, b, env.server.URL, http.MethodPost, "/login", "", map[string]any{"username": u.Username, "password": "not the password!"}, nil)
	missing := doRequest(t, b, env.server.URL, http.MethodPost, "/login", "", map[string]any{"username": "nobody-" + randomSuffix(), "password": "not the password!"}, nil)
	expectStatus(t, wrong, http.StatusUnauthorized)
	expectStatus(t, missing, http.StatusUnauthorized)
	if string(wrong.Raw) != string(missing.Raw) {
		t.Fatalf("failures differ by whether the user exists:\n%s\n%s", wrong.Raw, missing.Raw)
	}
	for range 4 {
		doRequest(t, b, env.server.URL, http.MethodPost, "/login", "", map[string]any{"email": u.Email, "password": "still wrong pw"}, nil)
	}
	r := doRequest(t, b, env.server.URL, http.MethodPost, "/login", "", map[string]any{"username": u.Username, "password": testPassword}, nil)
	expectStatus(t, r, http.StatusTooManyRequests)
	if r.errCode() != "rate_limited" || r.Header.Get("Retry-After") == "" {
		t.Fatalf("throttled login: %s %v", r.Raw, r.Header)
	}
	events, _, err := env.store.ListAudit(context.Background(), store.AuditFilter{Action: "auth.login", TargetID: u.ID, Page: 1, PerPage: 50})
	if err != nil || len(events) < 6 {
		t.Fatalf("login attempts not audited: %d events (%v)", len(events), err)
	}
	for _, e := range events {
		if strings.Contains(string(mustJSON(e.Details.V)), "password") {
			t.Fatal("audit details mention the password")
		}
	}
}

func TestHTMLLoginForm(t *testing.T) {
	u := userWithPassword(t, store.RoleViewer)
	b := newBrowser(t)
	page := doRequest(t, b, env.server.URL, http.MethodGet, "/login", "", nil, nil)
	expectStatus(t, page, http.StatusOK)
	if !strings.Contains(string(page.Raw), `name="password"`) {
		t.Fatal("login page has no password field")
	}
	form := url.Values{"login": {u.Username}, "password": {"wrong password!!"}}
	res, err := b.PostForm(env.server.URL+"/login", form)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusSeeOther || !strings.Contains(res.Header.Get("Location"), "error=") {
		t.Fatalf("failed form login: %d %s", res.StatusCode, res.Header.Get("Location"))
	}
	form.Set("password", testPassword)
	res, err = b.PostForm(env.server.URL+"/login", form)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusSeeOther {
		t.Fatalf("form login: %d", res.StatusCode)
	}
	page = doRequest(t, b, env.server.URL, http.MethodGet, "/login", "", nil, nil)
	if !strings.Contains(string(page.Raw), "Signed in as") || !strings.Contains(string(page.Raw), `name="csrf_token"`) {
		t.Fatalf("signed-in page: %s", page.Raw)
	}
	// A form posted from another site is refused (login CSRF).
	req, _ := http.NewRequest(http.MethodPost, env.server.URL+"/login", strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Origin", "https://evil.example")
	res, err = newBrowser(t).Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusSeeOther || !strings.Contains(res.Header.Get("Location"), "origin") {
		t.Fatalf("cross-origin form login: %d %s", res.StatusCode, res.Header.Get("Location"))
	}
}

func TestDisablingAUserEndsKeysAndSessionsAtOnce(t *testing.T) {
	s := loginAs(t, store.RoleAnalyst)
	u, _ := env.store.UserByUsername(context.Background(), s.user)
	_, key, _ := env.store.CreateAPIKey(context.Background(), u.ID, "k", nil, nil)
	expectStatus(t, call(t, http.MethodGet, "/api/incidents", key, nil), http.StatusOK)
	r := call(t, http.MethodPut, "/api/users/"+u.ID, env.adminKey, map[string]any{"enabled": false})
	expectStatus(t, r, http.StatusOK)
	expectStatus(t, call(t, http.MethodGet, "/api/incidents", key, nil), http.StatusUnauthorized)
	expectStatus(t, s.call(t, http.MethodGet, "/api/users/me", nil, false), http.StatusUnauthorized)
	// Re-enabling the user brings back neither the key nor the session:
	// both may have leaked while the account was off.
	expectStatus(t, call(t, http.MethodPut, "/api/users/"+u.ID, env.adminKey, map[string]any{"enabled": true}), http.StatusOK)
	expectStatus(t, call(t, http.MethodGet, "/api/incidents", key, nil), http.StatusUnauthorized)
	expectStatus(t, s.call(t, http.MethodGet, "/api/users/me", nil, false), http.StatusUnauthorized)
	keys := call(t, http.MethodGet, "/api/api-keys?user_id="+u.ID, env.adminKey, nil)
	expectStatus(t, keys, http.StatusOK)
	for _, k := range keys.Body["data"].([]any) {
		if k.(map[string]any)["revoked_at"] == nil {
			t.Fatalf("key still live after disabling: %v", k)
		}
	}
	// A key issued after re-enabling works.
	fresh := call(t, http.MethodPost, "/api/api-keys", env.adminKey, map[string]any{"name": "after", "user_id": u.ID})
	expectStatus(t, fresh, http.StatusCreated)
	expectStatus(t, call(t, http.MethodGet, "/api/incidents", fresh.data()["key"].(string), nil), http.StatusOK)
}
