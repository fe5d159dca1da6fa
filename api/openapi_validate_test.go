package api_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"mime"
	"regexp"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// The OpenAPI 3.1 document's schemas are JSON Schema 2020-12, which
// santhosh-tekuri/jsonschema implements in full; every answer the suite
// receives from a documented route is checked against the document.

// docOperation is one method and path of the document with its compiled
// response schemas keyed by status ("200", "2XX", "default").
type docOperation struct {
	method    string
	path      *regexp.Regexp
	params    int
	responses map[string]*jsonschema.Schema
}

var (
	docOnce sync.Once
	docOps  []docOperation
	docErr  error
)

// loadDocument compiles the router's OpenAPI document once.
func loadDocument() ([]docOperation, error) {
	docOnce.Do(func() { docOps, docErr = compileDocument(env.router.OpenAPI("test")) })
	return docOps, docErr
}

func compileDocument(doc map[string]any) ([]docOperation, error) {
	// Round-trip through JSON so the schemas are plain JSON values.
	raw, err := json.Marshal(doc)
	if err != nil {
		return nil, err
	}
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		return nil, err
	}
	root := v.(map[string]any)
	components := root["components"]
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	var ops []docOperation
	n := 0
	for path, item := range root["paths"].(map[string]any) {
		re := pathPattern(path)
		for method, rawOp := range item.(map[string]any) {
			op := docOperation{method: strings.ToUpper(method), path: re, params: strings.Count(path, "{"),
				responses: map[string]*jsonschema.Schema{}}
			for status, rawResp := range rawOp.(map[string]any)["responses"].(map[string]any) {
				content, _ := rawResp.(map[string]any)["content"].(map[string]any)
				media, _ := content["application/json"].(map[string]any)
				schema, _ := media["schema"].(map[string]any)
				if schema == nil {
					continue
				}
				// A resource of its own, carrying the components so that
				// "#/components/schemas/..." references resolve.
				res := map[string]any{"components": components}
				for k, v := range schema {
					res[k] = v
				}
				n++
				url := fmt.Sprintf("mem://openapi/%d.json", n)
				if err := c.AddResource(url, res); err != nil {
					return nil, err
				}
				compiled, err := c.Compile(url)
				if err != nil {
					return nil, fmt.Errorf("%s %s %s: %w", method, path, status, err)
				}
				op.responses[status] = compiled
			}
			ops = append(ops, op)
		}
	}
	// Static segments win over parameters, as in the router.
	sort.SliceStable(ops, func(i, j int) bool { return ops[i].params < ops[j].params })
	return ops, nil
}

// checkAgainstDocument fails the test when a JSON answer from a documented
// route does not match the document's schema for its status.
func checkAgainstDocument(t *testing.T, method, path string, r response) {
	t.Helper()
	if env.router == nil || len(r.Raw) == 0 {
		return
	}
	if mt, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type")); mt != "application/json" {
		return
	}
	ops, err := loadDocument()
	if err != nil {
		t.Fatalf("OpenAPI document does not compile: %v", err)
	}
	path, _, _ = strings.Cut(path, "?")
	for _, op := range ops {
		if op.method != method || !op.path.MatchString(path) {
			continue
		}
		status := fmt.Sprint(r.Status)
		schema := op.responses[status]
		if schema == nil {
			schema = op.responses[status[:1]+"XX"]
		}
		if schema == nil {
			schema = op.responses["default"]
		}
		if schema == nil {
			t.Errorf("%s %s answered %d, which the OpenAPI document does not list", method, path, r.Status)
			return
		}
		body, err := jsonschema.UnmarshalJSON(bytes.NewReader(r.Raw))
		if err != nil {
			t.Errorf("%s %s: answer is not JSON: %v", method, path, err)
			return
		}
		if err := schema.Validate(body); err != nil {
			t.Errorf("%s %s answered %d not as the OpenAPI document says: %v\nbody: %s", method, path, r.Status, err, r.Raw)
		}
		return
	}
}

// pathPattern matches request paths against an OpenAPI path template.
func pathPattern(template string) *regexp.Regexp {
	parts := strings.Split(template, "/")
	for i, p := range parts {
		if strings.HasPrefix(p, "{") && strings.HasSuffix(p, "}") {
			parts[i] = "[^/]+"
		} else {
			parts[i] = regexp.QuoteMeta(p)
		}
	}
	return regexp.MustCompile("^" + strings.Join(parts, "/") + "$")
}
