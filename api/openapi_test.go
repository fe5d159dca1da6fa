package api

import (
	"slices"
	"strings"
	"testing"

	"github.com/gin-gonic/gin"
	"go.temporal.io/sdk/converter"
)

// TestOpenAPIDocumentsEveryRoute checks the document against the engine in
// both directions, and that every typed entry names a registered route.
func TestOpenAPIDocumentsEveryRoute(t *testing.T) {
	rt := NewRouter(Options{})
	doc := rt.OpenAPI("test")
	paths := doc["paths"].(map[string]map[string]any)
	registered := map[string]bool{}
	for _, r := range rt.Routes() {
		registered[r.Method+" "+r.Path] = true
		if !Documented(r.Path) {
			continue
		}
		if _, ok := paths[OpenAPIPathOf(r.Path)][strings.ToLower(r.Method)]; !ok {
			t.Errorf("route %s %s is not in the OpenAPI document", r.Method, r.Path)
		}
	}
	documented := 0
	for p, ops := range paths {
		for m := range ops {
			documented++
			found := slices.ContainsFunc(rt.Routes(), func(r gin.RouteInfo) bool {
				return strings.EqualFold(r.Method, m) && OpenAPIPathOf(r.Path) == p
			})
			if !found {
				t.Errorf("documented %s %s is not a route", strings.ToUpper(m), p)
			}
		}
	}
	if documented < 2*len(rt.Access) {
		t.Errorf("%d operations documented for %d /api routes and their /api/v1 aliases", documented, len(rt.Access))
	}
	for key := range routeDocs {
		if !registered[key] && !strings.HasPrefix(key, "GET /api/settings") {
			t.Errorf("routeDocs names %s, which is not registered", key)
		}
	}
}

func TestOpenAPIOperationsCarryAccessAndTypes(t *testing.T) {
	doc := NewRouter(Options{}).OpenAPI("1.2.3")
	if doc["openapi"] != "3.1.0" || doc["info"].(map[string]any)["version"] != "1.2.3" {
		t.Fatalf("header: %v %v", doc["openapi"], doc["info"])
	}
	paths := doc["paths"].(map[string]map[string]any)
	for _, p := range []string{"/api/incidents/{id}", "/api/v1/incidents/{id}"} {
		op := paths[p]["get"].(map[string]any)
		if op["x-vigil-min-role"] != "viewer" || op["x-vigil-scope"] != ScopeRead {
			t.Errorf("%s: access %v %v", p, op["x-vigil-min-role"], op["x-vigil-scope"])
		}
		ok := op["responses"].(map[string]any)["200"].(map[string]any)
		schema := ok["content"].(map[string]any)["application/json"].(map[string]any)["schema"].(map[string]any)
		data := schema["properties"].(map[string]any)["data"].(map[string]any)
		if data["$ref"] != "#/components/schemas/IncidentDetail" {
			t.Errorf("%s: data schema %v", p, data)
		}
	}
	detail := doc["components"].(map[string]any)["schemas"].(map[string]any)["IncidentDetail"].(map[string]any)
	props := detail["properties"].(map[string]any)
	for _, f := range []string{"id", "incident_number", "raw_data", "verdict", "created_at"} {
		if props[f] == nil {
			t.Errorf("IncidentDetail lacks %s", f)
		}
	}
	if slices.Contains(detail["required"].([]string), "triaged_at") {
		t.Error("an omitempty field is listed as required")
	}
	create := paths["/api/incidents"]["post"].(map[string]any)
	if create["requestBody"] == nil || create["responses"].(map[string]any)["201"] == nil {
		t.Errorf("POST /api/incidents: %v", create)
	}
	if _, ok := paths["/api/incidents"]["post"].(map[string]any)["responses"].(map[string]any)["default"]; !ok {
		t.Error("no error response")
	}
}

// TestCodecAnswersAtRootAndUnderAPI checks that with a payload codec the
// codec routes are registered and documented at /codec (the endpoint the
// Temporal UI is given) and under /api and /api/v1, each under the same
// access rule, and that every operation keeps a distinct operationId.
func TestCodecAnswersAtRootAndUnderAPI(t *testing.T) {
	rt := NewRouter(Options{PayloadCodec: converter.NewZlibCodec(converter.ZlibCodecOptions{})})
	paths := rt.OpenAPI("test")["paths"].(map[string]map[string]any)
	for _, prefix := range []string{"", "/api", "/api/v1"} {
		for _, p := range []string{codecEncodePath, codecDecodePath} {
			path := prefix + p
			registered := slices.ContainsFunc(rt.Routes(), func(r gin.RouteInfo) bool {
				return r.Method == "POST" && r.Path == path
			}) && slices.ContainsFunc(rt.Routes(), func(r gin.RouteInfo) bool {
				return r.Method == "OPTIONS" && r.Path == path
			})
			if !registered {
				t.Errorf("POST and OPTIONS %s are not both registered", path)
				continue
			}
			op, _ := paths[path]["post"].(map[string]any)
			if op == nil || op["x-vigil-min-role"] != "analyst" {
				t.Errorf("POST %s documented as %v", path, op)
			}
		}
	}
	ids := map[string]string{}
	for p, ops := range paths {
		for m, op := range ops {
			id := op.(map[string]any)["operationId"].(string)
			if other, dup := ids[id]; dup {
				t.Errorf("operationId %s names both %s and %s %s", id, other, m, p)
			}
			ids[id] = m + " " + p
		}
	}
}
