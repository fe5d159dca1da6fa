package api

import (
	"net/http"

	"github.com/vigil-soc/vigil/content"
)

// packageDocs are the OpenAPI entries of the package and knowledge
// routes, added to routeDocs.
var packageDocs = map[string]opDoc{
	"GET /api/v1/packages":       {Summary: "installed content packages", Response: installedView{}, List: true},
	"GET /api/v1/packages/:name": {Summary: "one installed package with its items", Response: installedView{}},
	"POST /api/v1/packages/validate": {Summary: "validate a content package", Request: content.Package{},
		Response: content.Report{}},
	"POST /api/v1/packages/import": {Summary: "import a content package (dry_run previews)", Request: importRequest{},
		Response: map[string]any{}},
	"POST /api/v1/packages/export/playbook/:playbook_id": {Summary: "a playbook as a content package",
		Request: exportRequest{}, Response: content.Package{}},
	"POST /api/v1/packages/export/hunt/:hunt_id": {Summary: "a hunt, with the package queries it uses, as a content package",
		Request: exportRequest{}, Response: content.Package{}},
	"DELETE /api/v1/packages/:name": {Summary: "remove a package, keeping items changed here", Response: map[string]any{}},

	"GET /api/v1/knowledge": {Summary: "list knowledge articles, or search them with q", Response: knowledgeView{}, List: true},
	"POST /api/v1/knowledge": {Summary: "write a knowledge article", Request: knowledgeRequest{}, Response: knowledgeView{},
		Status: []int{http.StatusCreated}},
	"GET /api/v1/knowledge/:id": {Summary: "one article with its rendered, sanitized HTML", Response: knowledgeView{}},
	"PUT /api/v1/knowledge/:id": {Summary: "change a knowledge article", Request: knowledgeRequest{}, Response: knowledgeView{}},
	"DELETE /api/v1/knowledge/:id": {Summary: "delete a knowledge article", Status: []int{http.StatusNoContent},
		Response: struct{}{}},
}

func init() {
	for k, v := range packageDocs {
		routeDocs[k] = v
	}
}
