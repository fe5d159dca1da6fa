package okta

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// orgPeer answers like the Okta management API as its documentation
// describes it: "Authorization: SSWS <token>", Accept: application/json,
// admin permissions per endpoint, users addressed by id or login,
// lifecycle operations only from the states Okta allows, DELETE sessions
// answering 204, factors listed and reset, Okta's
// {errorCode,errorSummary,errorLink,errorId,errorCauses} bodies, and 429
// E0000047 with the X-Rate-Limit headers.
type orgPeer struct {
	srv   *httptest.Server
	token string
	perms map[string]bool

	mu       sync.Mutex
	users    map[string]*peerUser
	calls    map[string]int
	throttle int
	requests int
}

type peerUser struct {
	user
	factors []factor
}

func newOrgPeer(t *testing.T) *orgPeer {
	p := &orgPeer{token: "00okta-token-value", users: map[string]*peerUser{}, calls: map[string]int{},
		perms: map[string]bool{"okta.users.read": true, "okta.users.manage": true}}
	p.srv = httptest.NewServer(http.HandlerFunc(p.serve))
	t.Cleanup(p.srv.Close)
	return p
}

func (p *orgPeer) addUser(id, login, status string, factors ...factor) {
	p.mu.Lock()
	defer p.mu.Unlock()
	u := &peerUser{user: user{ID: id, Status: status}, factors: factors}
	u.Profile.Login = login
	p.users[id] = u
}

func (p *orgPeer) grant(perm string, held bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.perms[perm] = held
}

func (p *orgPeer) count(op string) int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.calls[op]
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

func fail(w http.ResponseWriter, status int, code, summary string, causes ...string) {
	cs := []map[string]string{}
	for _, c := range causes {
		cs = append(cs, map[string]string{"errorSummary": c})
	}
	writeJSON(w, status, map[string]any{"errorCode": code, "errorSummary": summary, "errorLink": code,
		"errorId": "oae00000000000000000000", "errorCauses": cs})
}

var userRoute = regexp.MustCompile(`^/api/v1/users/([^/]+)(/lifecycle/(suspend|unsuspend|reset_factors)|/sessions|/factors)?$`)

func (p *orgPeer) serve(w http.ResponseWriter, r *http.Request) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.requests++
	if p.throttle > 0 {
		p.throttle--
		w.Header().Set("X-Rate-Limit-Limit", "600")
		w.Header().Set("X-Rate-Limit-Remaining", "0")
		w.Header().Set("X-Rate-Limit-Reset", strconv.FormatInt(time.Now().Add(time.Second).Unix(), 10))
		fail(w, http.StatusTooManyRequests, "E0000047", "API call exceeded rate limit due to too many requests.")
		return
	}
	if r.Header.Get("Authorization") != "SSWS "+p.token {
		fail(w, http.StatusUnauthorized, "E0000011", "Invalid token provided")
		return
	}
	if r.Header.Get("Accept") != "application/json" {
		fail(w, http.StatusNotAcceptable, "E0000065", "Invalid Accept header")
		return
	}
	if r.Method == http.MethodGet && r.URL.Path == "/api/v1/users" {
		if p.allowed(w, "okta.users.read") {
			writeJSON(w, http.StatusOK, []user{})
		}
		return
	}
	m := userRoute.FindStringSubmatch(r.URL.Path)
	if m == nil {
		fail(w, http.StatusNotFound, "E0000022", "The endpoint does not support the provided HTTP method")
		return
	}
	perm := "okta.users.manage"
	if r.Method == http.MethodGet {
		perm = "okta.users.read"
	}
	if !p.allowed(w, perm) {
		return
	}
	var u *peerUser
	for _, c := range p.users {
		if c.ID == m[1] || strings.EqualFold(c.Profile.Login, m[1]) {
			u = c
		}
	}
	if u == nil {
		fail(w, http.StatusNotFound, "E0000007", "Not found: Resource not found: "+m[1]+" (User)")
		return
	}
	p.handle(w, r, u, r.Method+" "+m[2])
}

func (p *orgPeer) allowed(w http.ResponseWriter, perm string) bool {
	if !p.perms[perm] {
		fail(w, http.StatusForbidden, "E0000006", "You do not have permission to perform the requested action")
		return false
	}
	return true
}

// handle performs one user operation with Okta's state rules.
func (p *orgPeer) handle(w http.ResponseWriter, r *http.Request, u *peerUser, op string) {
	switch op {
	case "GET ":
		writeJSON(w, http.StatusOK, u.user)
	case "GET /factors":
		writeJSON(w, http.StatusOK, u.factors)
	case "POST /lifecycle/suspend":
		if u.Status != oktaActive {
			fail(w, http.StatusBadRequest, "E0000001", "Api validation failed: suspendUser", "Cannot suspend a user that is not active")
			return
		}
		p.calls["suspend"]++
		u.Status = oktaSuspended
		writeJSON(w, http.StatusOK, map[string]any{})
	case "POST /lifecycle/unsuspend":
		if u.Status != oktaSuspended {
			fail(w, http.StatusBadRequest, "E0000001", "Api validation failed: unsuspendUser", "Cannot unsuspend a user that is not suspended")
			return
		}
		p.calls["unsuspend"]++
		u.Status = oktaActive
		writeJSON(w, http.StatusOK, map[string]any{})
	case "POST /lifecycle/reset_factors":
		p.calls["reset_factors"]++
		u.factors = nil
		writeJSON(w, http.StatusOK, map[string]any{})
	case "DELETE /sessions":
		if v := r.URL.Query().Get("oauthTokens"); v != "" && v != "true" && v != "false" {
			fail(w, http.StatusBadRequest, "E0000001", "Api validation failed: oauthTokens")
			return
		}
		p.calls["sessions"]++
		if r.URL.Query().Get("oauthTokens") == "true" {
			p.calls["tokens"]++
		}
		w.WriteHeader(http.StatusNoContent)
	default:
		fail(w, http.StatusMethodNotAllowed, "E0000022", "The endpoint does not support the provided HTTP method")
	}
}
