package entra

import (
	"encoding/json"
	"mime"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/vigil-soc/vigil/connectors/vendortest"
)

// graphPeer answers like the Microsoft identity platform and Microsoft
// Graph v1.0 as their documentation describes them: a client-credentials
// token for the Graph scope (AADSTS errors on bad credentials), bearer
// tokens, an application permission per endpoint, users addressed by id or
// user principal name, PATCH with known properties only (204),
// revokeSignInSessions answering {"value":true}, authentication methods
// listed with their @odata.type and deleted from their own collection,
// refusing the default method while others remain and a mobile number
// while an alternate one remains, {"error":{code,message,innerError}}
// bodies, and 429 with Retry-After.
type graphPeer struct {
	srv    *httptest.Server
	tenant string
	secret string
	roles  map[string]bool

	mu         sync.Mutex
	users      map[string]*peerUser
	tokenCalls int
	writes     map[string]int
	throttle   int
	requests   int
}

type peerUser struct {
	user
	methods []peerMethod
}

type peerMethod struct {
	method
	phoneType string
	isDefault bool
}

const peerToken = "graph-test-token"

func newGraphPeer(t *testing.T) *graphPeer {
	p := &graphPeer{tenant: "contoso-tenant", secret: "s3cret-value", users: map[string]*peerUser{}, writes: map[string]int{},
		roles: map[string]bool{"User.Read.All": true, "User.EnableDisableAccount.All": true,
			"User.RevokeSessions.All": true, "UserAuthenticationMethod.ReadWrite.All": true}}
	p.srv = httptest.NewServer(http.HandlerFunc(p.serve))
	t.Cleanup(p.srv.Close)
	return p
}

func (p *graphPeer) addUser(id, upn string, methods ...peerMethod) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.users[id] = &peerUser{user: user{ID: id, UserPrincipalName: upn, AccountEnabled: true}, methods: methods}
}

func (p *graphPeer) grant(role string, held bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.roles[role] = held
}

func (p *graphPeer) count(op string) int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.writes[op]
}

func (p *graphPeer) methodsOf(id string) []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	var out []string
	for _, m := range p.users[id].methods {
		out = append(out, m.kind())
	}
	return out
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

func fail(w http.ResponseWriter, status int, code, msg string) {
	writeJSON(w, status, map[string]any{"error": map[string]any{"code": code, "message": msg,
		"innerError": map[string]any{"date": "2026-01-01T00:00:00", "request-id": "00000000-0000-0000-0000-000000000000"}}})
}

func (p *graphPeer) serve(w http.ResponseWriter, r *http.Request) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if strings.HasSuffix(r.URL.Path, "/oauth2/v2.0/token") {
		p.token(w, r)
		return
	}
	p.requests++
	if p.throttle > 0 {
		p.throttle--
		w.Header().Set("Retry-After", "1")
		fail(w, http.StatusTooManyRequests, "TooManyRequests", "Too many requests")
		return
	}
	if r.Header.Get("Authorization") != "Bearer "+peerToken {
		fail(w, http.StatusUnauthorized, "InvalidAuthenticationToken", "Access token is empty.")
		return
	}
	role, handle := p.route(r)
	if handle == nil {
		fail(w, http.StatusBadRequest, "BadRequest", "Resource not found for the segment.")
		return
	}
	if !p.roles[role] {
		fail(w, http.StatusForbidden, "Authorization_RequestDenied", "Insufficient privileges to complete the operation.")
		return
	}
	handle(w, r)
}

func (p *graphPeer) token(w http.ResponseWriter, r *http.Request) {
	p.tokenCalls++
	vendortest.MicrosoftToken{Tenant: p.tenant, Scope: DefaultScope,
		Secrets: map[string]string{"app-1": p.secret}, Tokens: map[string]string{"app-1": peerToken}}.Serve(w, r)
}

var (
	userRoute   = regexp.MustCompile(`^/v1\.0/users/([^/]+)(/revokeSignInSessions|/authentication/methods|/authentication/(\w+)/([\w-]+))?$`)
	selectUsers = regexp.MustCompile(`^[\w,]+$`)
)

// route picks the handler for a request and the permission it needs.
func (p *graphPeer) route(r *http.Request) (string, func(http.ResponseWriter, *http.Request)) {
	if r.Method == http.MethodGet && r.URL.Path == "/v1.0/users" {
		return "User.Read.All", func(w http.ResponseWriter, r *http.Request) {
			writeJSON(w, http.StatusOK, map[string]any{"value": []map[string]string{{"id": "u-any"}}})
		}
	}
	m := userRoute.FindStringSubmatch(r.URL.Path)
	if m == nil {
		return "", nil
	}
	find := func(w http.ResponseWriter) *peerUser {
		for _, u := range p.users {
			if u.ID == m[1] || strings.EqualFold(u.UserPrincipalName, m[1]) {
				return u
			}
		}
		fail(w, http.StatusNotFound, "Request_ResourceNotFound", "Resource '"+m[1]+"' does not exist or one of its queried reference-property objects are not present.")
		return nil
	}
	switch {
	case r.Method == http.MethodGet && m[2] == "":
		return "User.Read.All", func(w http.ResponseWriter, r *http.Request) {
			if !selectUsers.MatchString(r.URL.Query().Get("$select")) {
				fail(w, http.StatusBadRequest, "BadRequest", "Invalid $select")
			} else if u := find(w); u != nil {
				writeJSON(w, http.StatusOK, u.user)
			}
		}
	case r.Method == http.MethodPatch && m[2] == "":
		return "User.EnableDisableAccount.All", func(w http.ResponseWriter, r *http.Request) {
			if u := find(w); u != nil {
				p.patch(w, r, u)
			}
		}
	case r.Method == http.MethodPost && m[2] == "/revokeSignInSessions":
		return "User.RevokeSessions.All", func(w http.ResponseWriter, r *http.Request) {
			if u := find(w); u != nil {
				p.writes["revoke"]++
				writeJSON(w, http.StatusOK, map[string]any{"@odata.context": "https://graph.microsoft.com/v1.0/$metadata#Edm.Boolean", "value": true})
			}
		}
	case r.Method == http.MethodGet && m[2] == "/authentication/methods":
		return "UserAuthenticationMethod.ReadWrite.All", func(w http.ResponseWriter, r *http.Request) {
			if u := find(w); u != nil {
				out := []map[string]string{}
				for _, pm := range u.methods {
					out = append(out, map[string]string{"@odata.type": pm.Type, "id": pm.ID})
				}
				writeJSON(w, http.StatusOK, map[string]any{"value": out})
			}
		}
	case r.Method == http.MethodDelete && m[3] != "":
		return "UserAuthenticationMethod.ReadWrite.All", func(w http.ResponseWriter, r *http.Request) {
			if u := find(w); u != nil {
				p.deleteMethod(w, u, m[3], m[4])
			}
		}
	}
	return "", nil
}

func (p *graphPeer) patch(w http.ResponseWriter, r *http.Request, u *peerUser) {
	var body map[string]any
	if ct, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type")); ct != "application/json" || json.NewDecoder(r.Body).Decode(&body) != nil {
		fail(w, http.StatusBadRequest, "BadRequest", "Unable to read JSON request payload.")
		return
	}
	for k := range body {
		if k != "accountEnabled" {
			fail(w, http.StatusBadRequest, "Request_BadRequest", "Invalid property '"+k+"'.")
			return
		}
	}
	enabled, ok := body["accountEnabled"].(bool)
	if !ok {
		fail(w, http.StatusBadRequest, "Request_BadRequest", "Invalid value specified for property 'accountEnabled' of resource 'User'.")
		return
	}
	p.writes["patch"]++
	u.AccountEnabled = enabled
	w.WriteHeader(http.StatusNoContent)
}

// deleteMethod deletes one method from its collection, with Graph's rules.
func (p *graphPeer) deleteMethod(w http.ResponseWriter, u *peerUser, collection, id string) {
	for i, pm := range u.methods {
		if pm.ID != id {
			continue
		}
		if removable[pm.Type] != collection {
			fail(w, http.StatusNotFound, "itemNotFound", "The method was not found in "+collection+".")
			return
		}
		for _, other := range u.methods {
			if pm.isDefault && other.ID != id && other.kind() != "password" {
				fail(w, http.StatusBadRequest, "badRequest", "Cannot delete default method with other methods configured. Please change default method before deletion.")
				return
			}
			if pm.phoneType == "mobile" && other.phoneType == "alternateMobile" {
				fail(w, http.StatusBadRequest, "badRequest", "A user can't have an alternateMobile number without a mobile number.")
				return
			}
		}
		p.writes["delete"]++
		u.methods = append(u.methods[:i], u.methods[i+1:]...)
		w.WriteHeader(http.StatusNoContent)
		return
	}
	fail(w, http.StatusNotFound, "itemNotFound", "The method was not found.")
}
