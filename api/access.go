package api

import (
	"net/http"
	"slices"

	"github.com/gin-gonic/gin"

	"github.com/vigil-soc/vigil/store"
)

// API key scopes. An empty scope list means "whatever the user's role
// allows"; scopes only narrow a role, never widen it, because every route
// checks the role as well as the scope.
const (
	ScopeRead           = "read"            // every GET
	ScopeWrite          = "write"           // create and change incidents, run triage, own keys and password
	ScopeActionsExecute = "actions:execute" // request response actions
	ScopeActionsApprove = "actions:approve" // approve or reject actions
	ScopeAdmin          = "admin"           // users, settings, audit, deletions; implies every other scope
)

// Scopes lists every scope.
var Scopes = []string{ScopeRead, ScopeWrite, ScopeActionsExecute, ScopeActionsApprove, ScopeAdmin}

// RoleScopes returns the scopes a key of a user with the given role may
// carry: viewers only read, admins hold everything.
func RoleScopes(role string) []string {
	switch role {
	case store.RoleAdmin:
		return Scopes
	case store.RoleViewer:
		return []string{ScopeRead}
	case store.RoleAnalyst, store.RoleSenior, store.RoleManager:
		return []string{ScopeRead, ScopeWrite, ScopeActionsExecute, ScopeActionsApprove}
	}
	return nil
}

// scopeAllows reports whether a key's scopes admit a route's scope.
func scopeAllows(keyScopes []string, need string) bool {
	return len(keyScopes) == 0 || slices.Contains(keyScopes, need) || slices.Contains(keyScopes, ScopeAdmin)
}

// LimitClass picks which rate limit a route counts against.
type LimitClass string

// Rate limit classes.
const (
	LimitRead   LimitClass = "read"
	LimitWrite  LimitClass = "write"
	LimitTriage LimitClass = "triage"
)

// Route is one /api route and its access rule.
type Route struct {
	Method  string
	Path    string
	MinRole string
	Scope   string
	Limit   LimitClass
	// Audit names the action recorded in the audit trail; reads leave it empty.
	Audit string
}

// routes registers /api handlers, each at /api and at /api/v1; a route
// cannot be added without a valid role, scope and limit class.
type routes struct {
	s     *server
	group *gin.RouterGroup
	v1    *gin.RouterGroup
	// root serves the few routes that also answer outside /api, under the
	// access rule of their /api twin (the payload codec at /codec).
	root *gin.RouterGroup
	list []Route
}

func (a *routes) handle(r Route, h handlerFunc) {
	a.add(r, nil, a.s.checkCSRF, h)
}

// add registers a route behind before (middleware that must answer even
// refused requests, such as CORS) with csrf as its cross-site check.
func (a *routes) add(r Route, before []gin.HandlerFunc, csrf gin.HandlerFunc, h handlerFunc) {
	if store.RoleRank(r.MinRole) < 0 || !slices.Contains(Scopes, r.Scope) || r.Limit == "" {
		panic("api: route " + r.Method + " " + r.Path + " has no valid access rule")
	}
	if r.Method != http.MethodGet && r.Audit == "" {
		panic("api: state-changing route " + r.Method + " " + r.Path + " has no audit action")
	}
	chain := a.chain(r, before, csrf, h)
	a.group.Handle(r.Method, r.Path, chain...)
	if a.v1 != nil {
		a.v1.Handle(r.Method, r.Path, chain...)
	}
	r.Path = "/api" + r.Path
	a.list = append(a.list, r)
}

// chain is a route's handlers in order: before, the rate limit, the audit
// record, authentication, the access rule, csrf and the handler.
func (a *routes) chain(r Route, before []gin.HandlerFunc, csrf gin.HandlerFunc, h handlerFunc) []gin.HandlerFunc {
	chain := slices.Concat(before, []gin.HandlerFunc{a.s.rateLimit(r.Limit)})
	if r.Audit != "" {
		chain = append(chain, a.s.auditRequest(r.Audit))
	}
	return append(chain, a.s.requireAuth, a.s.authorize(r), csrf, a.s.wrap(h))
}

// authorize refuses callers whose role ranks below the route's or whose
// key scopes exclude it.
func (s *server) authorize(r Route) gin.HandlerFunc {
	return func(c *gin.Context) {
		p := principal(c)
		if store.RoleRank(p.User.Role) < store.RoleRank(r.MinRole) {
			s.abortWithError(c, &Error{Status: http.StatusForbidden, Code: CodeForbidden,
				Message: "this operation needs role " + r.MinRole + " or higher",
				Details: map[string]any{"required_role": r.MinRole, "your_role": p.User.Role}})
			return
		}
		if !scopeAllows(p.Scopes(), r.Scope) {
			s.abortWithError(c, &Error{Status: http.StatusForbidden, Code: CodeInsufficientScope,
				Message: "this API key lacks the scope " + r.Scope,
				Details: map[string]any{"required_scope": r.Scope, "key_scopes": p.Scopes()}})
			return
		}
		c.Next()
	}
}

// CodeScopeEscalation refuses a new API key that could do more than the
// credential asking for it.
const CodeScopeEscalation = "scope_escalation"

// effectiveScopes returns what the caller's credential may do: everything
// its role allows for a session or an unscoped key; for a scoped key, its
// scopes within its role, with admin standing for every scope.
func effectiveScopes(p *store.Principal) []string {
	role := RoleScopes(p.User.Role)
	held := p.Scopes()
	if len(held) == 0 {
		return role
	}
	out := []string{}
	for _, sc := range role {
		if scopeAllows(held, sc) {
			out = append(out, sc)
		}
	}
	return out
}

// checkNoEscalation refuses a new key wider than the calling credential:
// its scopes must be a subset of the caller's effective scopes, and only a
// session or an unscoped key may create an unscoped key, since no scopes
// means everything the owner's role allows.
func checkNoEscalation(p *store.Principal, requested []string) error {
	held := effectiveScopes(p)
	if len(requested) == 0 && len(p.Scopes()) > 0 {
		return &Error{Status: http.StatusForbidden, Code: CodeScopeEscalation,
			Message: "a scoped API key cannot create an unscoped key; list the scopes the new key needs (at most the calling key's)",
			Details: map[string]any{"requested_scopes": []string{}, "your_scopes": held}}
	}
	for _, sc := range requested {
		if !slices.Contains(held, sc) {
			return &Error{Status: http.StatusForbidden, Code: CodeScopeEscalation,
				Message: "the new key would hold scope " + sc + ", which the calling credential lacks",
				Details: map[string]any{"requested_scopes": requested, "your_scopes": held}}
		}
	}
	return nil
}
