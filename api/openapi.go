package api

import (
	"encoding/json"
	"net/http"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/gin-gonic/gin"
)

// OpenAPIPath is where the OpenAPI document is served.
const OpenAPIPath = "/api/openapi.json"

// Documented reports whether a registered path belongs in the OpenAPI
// document: the API and the operations endpoints, not the dashboard pages.
func Documented(path string) bool {
	switch path {
	case "/live", "/ready", "/metrics", "/login", "/logout":
		return true
	}
	return strings.HasPrefix(path, "/api/") || path == "/health" || strings.HasPrefix(path, "/health/") ||
		strings.HasPrefix(path, CodecEndpoint+"/")
}

// openAPIDoc builds the document once, on first request, from the routes
// registered on the engine by then, so routes other packages add after
// NewRouter are described too.
type openAPIDoc struct {
	once sync.Once
	body []byte
	err  error
}

func (d *openAPIDoc) handler(rt *Router, version string) gin.HandlerFunc {
	return func(c *gin.Context) {
		d.once.Do(func() { d.body, d.err = json.Marshal(rt.OpenAPI(version)) })
		if d.err != nil {
			c.AbortWithStatus(http.StatusInternalServerError)
			return
		}
		c.Data(http.StatusOK, "application/json", d.body)
	}
}

// OpenAPI returns the OpenAPI 3.1 document of every documented route on
// the engine. Each operation takes its access rule from the route
// registry and its body and answer types from routeDocs; a route without
// an entry there is described as taking and answering a JSON object.
func (rt *Router) OpenAPI(version string) map[string]any {
	access := map[string]Route{}
	for _, r := range rt.Access {
		access[r.Method+" "+r.Path] = r
	}
	ss := newSchemaSet()
	ss.defs["Error"] = errorSchema()
	paths := map[string]map[string]any{}
	routes := rt.Routes()
	sort.Slice(routes, func(i, j int) bool {
		if routes[i].Path != routes[j].Path {
			return routes[i].Path < routes[j].Path
		}
		return routes[i].Method < routes[j].Method
	})
	for _, r := range routes {
		if !Documented(r.Path) {
			continue
		}
		p := OpenAPIPathOf(r.Path)
		if paths[p] == nil {
			paths[p] = map[string]any{}
		}
		unversioned := canonicalPath(r.Path)
		rule, hasRule := access[r.Method+" "+r.Path]
		if !hasRule {
			rule, hasRule = access[r.Method+" "+unversioned]
		}
		doc, hasDoc := routeDocs[r.Method+" "+r.Path]
		if !hasDoc {
			doc = routeDocs[r.Method+" "+unversioned]
		}
		paths[p][strings.ToLower(r.Method)] = operation(ss, r.Method, r.Path, doc, rule, hasRule)
	}
	return map[string]any{
		"openapi": "3.1.0",
		"info": map[string]any{
			"title":       "Vigil API",
			"version":     version,
			"description": "Incident triage and response. Every /api route also answers under /api/v1.",
		},
		"paths": paths,
		"components": map[string]any{
			"schemas": ss.defs,
			"securitySchemes": map[string]any{
				"bearer":  map[string]any{"type": "http", "scheme": "bearer", "description": "an API key"},
				"session": map[string]any{"type": "apiKey", "in": "cookie", "name": sessionCookie},
			},
		},
	}
}

// OpenAPIPathOf writes a gin path template in OpenAPI form: /a/:id → /a/{id}.
func OpenAPIPathOf(path string) string {
	parts := strings.Split(path, "/")
	for i, p := range parts {
		if strings.HasPrefix(p, ":") || strings.HasPrefix(p, "*") {
			parts[i] = "{" + p[1:] + "}"
		}
	}
	return strings.Join(parts, "/")
}

// canonicalPath maps an alias (/api/v1/..., or the codec at /codec/...)
// to the /api route it serves.
func canonicalPath(path string) string {
	if rest, ok := strings.CutPrefix(path, "/api/v1/"); ok {
		return "/api/" + rest
	}
	if strings.HasPrefix(path, CodecEndpoint+"/") {
		return "/api" + path
	}
	return path
}

func operation(ss *schemaSet, method, path string, doc opDoc, rule Route, hasRule bool) map[string]any {
	op := map[string]any{
		"operationId": operationID(method, path),
		"tags":        []string{tagOf(path)},
		"responses":   responses(ss, doc),
	}
	if doc.Summary != "" {
		op["summary"] = doc.Summary
	}
	if params := pathParams(path); len(params) > 0 {
		op["parameters"] = params
	}
	if hasRule {
		op["security"] = []any{map[string]any{"bearer": []string{}}, map[string]any{"session": []string{}}}
		op["x-vigil-min-role"] = rule.MinRole
		op["x-vigil-scope"] = rule.Scope
		op["x-vigil-rate-limit"] = string(rule.Limit)
	}
	if method == http.MethodPost || method == http.MethodPut || method == http.MethodPatch {
		body := map[string]any{"type": "object"}
		if doc.Request != nil {
			ss.request = true
			body = ss.of(reflect.TypeOf(doc.Request))
			ss.request = false
		}
		op["requestBody"] = map[string]any{
			"required": doc.Request != nil && !doc.OptionalBody,
			"content":  map[string]any{"application/json": map[string]any{"schema": body}},
		}
	}
	return op
}

func responses(ss *schemaSet, doc opDoc) map[string]any {
	out := map[string]any{
		"default": jsonResponse("an error", map[string]any{"$ref": "#/components/schemas/Error"}),
	}
	if doc.Response == nil && doc.ContentType == "" {
		// Undescribed routes: some JSON object on success.
		out["2XX"] = jsonResponse("success", map[string]any{"type": "object"})
		return out
	}
	statuses := doc.Status
	if len(statuses) == 0 {
		statuses = []int{http.StatusOK}
	}
	for _, st := range statuses {
		key := strconv.Itoa(st)
		switch {
		case st == http.StatusNoContent:
			out[key] = map[string]any{"description": "no content"}
		case doc.ContentType != "":
			out[key] = map[string]any{"description": "success", "content": map[string]any{
				doc.ContentType: map[string]any{"schema": map[string]any{"type": "string"}}}}
		default:
			out[key] = jsonResponse("success", bodySchema(ss, doc))
		}
	}
	return out
}

// bodySchema wraps the answer type as the handlers write it: under data,
// as a list, with paging meta, or as is.
func bodySchema(ss *schemaSet, doc opDoc) map[string]any {
	s := ss.of(reflect.TypeOf(doc.Response))
	if len(doc.Or) > 0 {
		alts := []any{s}
		for _, t := range doc.Or {
			alts = append(alts, ss.of(reflect.TypeOf(t)))
		}
		s = map[string]any{"anyOf": alts}
	}
	if doc.List {
		s = map[string]any{"type": "array", "items": s}
	}
	if doc.Raw && !doc.Paged {
		return s
	}
	out := map[string]any{"type": "object", "required": []string{"data"},
		"properties": map[string]any{"data": s}}
	if doc.Paged {
		out["required"] = []string{"data", "meta"}
		out["properties"].(map[string]any)["meta"] = map[string]any{
			"type": "object", "required": []string{"page", "per_page", "total"},
			"properties": map[string]any{
				"page": map[string]any{"type": "integer"}, "per_page": map[string]any{"type": "integer"},
				"total": map[string]any{"type": "integer"},
			},
		}
	}
	return out
}

func jsonResponse(desc string, schema map[string]any) map[string]any {
	return map[string]any{"description": desc, "content": map[string]any{
		"application/json": map[string]any{"schema": schema}}}
}

func errorSchema() map[string]any {
	return map[string]any{
		"type": "object", "required": []string{"error"},
		"properties": map[string]any{"error": map[string]any{
			"type": "object", "required": []string{"code", "message"},
			"properties": map[string]any{
				"code":    map[string]any{"type": "string"},
				"message": map[string]any{"type": "string"},
				"details": map[string]any{"type": "object"},
			},
		}},
	}
}

func pathParams(path string) []any {
	var out []any
	for _, p := range strings.Split(path, "/") {
		if strings.HasPrefix(p, ":") || strings.HasPrefix(p, "*") {
			out = append(out, map[string]any{"name": p[1:], "in": "path", "required": true,
				"schema": map[string]any{"type": "string"}})
		}
	}
	return out
}

// operationID is unique per method and path: GET /api/v1/incidents/:id →
// get_v1_incidents_id; a path outside /api is marked as such, since some
// have an /api twin: GET /metrics → get_root_metrics beside GET
// /api/metrics → get_metrics.
func operationID(method, path string) string {
	p, underAPI := strings.CutPrefix(path, "/api")
	if !underAPI {
		p = "/root" + p
	}
	p = strings.NewReplacer("/:", "_", "/*", "_", "/", "_", "-", "_", ".", "_").Replace(p)
	return strings.ToLower(method) + strings.TrimRight(p, "_")
}

// tagOf groups operations by their first path segment after /api(/v1).
func tagOf(path string) string {
	p := strings.TrimPrefix(canonicalPath(path), "/api/")
	p = strings.TrimPrefix(p, "/")
	if i := strings.IndexByte(p, '/'); i >= 0 {
		p = p[:i]
	}
	if p == "" || strings.HasPrefix(p, ":") {
		return "system"
	}
	return p
}
