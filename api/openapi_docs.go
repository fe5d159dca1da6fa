package api

import (
	"net/http"

	"github.com/vigil-soc/vigil/actions"
	"github.com/vigil-soc/vigil/store"
)

// opDoc describes one operation's body and answer for the OpenAPI document.
// Request and Response are zero values of the Go types the handler decodes
// and writes; the schemas are reflected from them, so they follow the code.
type opDoc struct {
	Summary      string
	Request      any
	OptionalBody bool // the body may be left out
	Response     any
	Or           []any // further types the answer may take instead of Response
	Status       []int // success statuses; empty means 200
	List         bool  // data is an array of Response
	Paged        bool  // a list with paging meta
	Raw          bool  // Response is the whole body, not under data
	ContentType  string
}

// routeDocs holds the types of the routes registered in router.go, keyed by
// method and /api path. A route without an entry is still documented, as
// taking and answering a JSON object; TestOpenAPIDocumentsEveryRoute fails
// on an entry whose route does not exist.
var routeDocs = map[string]opDoc{
	"GET /api/incidents": {Summary: "list incidents", Response: incidentSummary{}, List: true, Paged: true},
	"POST /api/incidents": {Summary: "create an incident", Request: createIncidentRequest{},
		Response: incidentDetail{}, Status: []int{http.StatusCreated}},
	"GET /api/incidents/:id": {Summary: "read one incident", Response: incidentDetail{}},
	"PUT /api/incidents/:id": {Summary: "change severity, status or resolution", Request: updateIncidentRequest{},
		Response: incidentDetail{}},
	"DELETE /api/incidents/:id": {Summary: "delete an incident (admin)", Status: []int{http.StatusNoContent}, Response: struct{}{}},
	"POST /api/incidents/:id/triage": {Summary: "triage an incident", Request: triageRequest{}, OptionalBody: true,
		Response: triageResponse{}, Or: []any{playbookTriage{}}, Status: []int{http.StatusOK, http.StatusAccepted}},
	"GET /api/incidents/:id/actions": {Summary: "actions of an incident", Response: actionView{}, List: true},
	"POST /api/incidents/:id/actions": {Summary: "request an action on an incident", Request: actionRequest{},
		Response: map[string]any{}, Status: []int{http.StatusCreated, http.StatusAccepted}},

	"GET /api/actions":       {Summary: "list actions", Response: actionView{}, List: true},
	"GET /api/actions/types": {Summary: "action types", Response: actions.Type{}, List: true},
	"GET /api/actions/:id":   {Summary: "read one action with its incident", Response: actionView{}},
	"POST /api/actions/execute": {Summary: "execute an action without an incident", Request: actionRequest{},
		Response: map[string]any{}, Status: []int{http.StatusCreated, http.StatusAccepted}},
	"POST /api/actions/:id/approve": {Summary: "approve a pending action", Request: approveRequest{}, OptionalBody: true,
		Response: map[string]any{}, Status: []int{http.StatusOK, http.StatusAccepted}},
	"POST /api/actions/:id/reject": {Summary: "reject a pending action", Request: rejectRequest{}, Response: map[string]any{}},
	"POST /api/actions/:id/rollback": {Summary: "roll a completed action back", Request: rollbackRequest{}, OptionalBody: true,
		Response: actionRollback{}, Status: []int{http.StatusCreated, http.StatusAccepted}},

	"GET /api/kill-switch": {Summary: "kill switch state", Response: killSwitchView{}},
	"POST /api/kill-switch/activate": {Summary: "halt all automation", Request: killSwitchRequest{},
		Response: killSwitchView{}},
	"POST /api/kill-switch/deactivate": {Summary: "resume automation", Request: killSwitchRequest{},
		Response: killSwitchView{}},

	"GET /api/users":     {Summary: "list users", Response: store.User{}, List: true, Paged: true},
	"GET /api/users/me":  {Summary: "the calling user", Response: store.User{}},
	"GET /api/users/:id": {Summary: "read one user", Response: store.User{}},
	"POST /api/users": {Summary: "create a user", Request: userRequest{}, Response: store.User{},
		Status: []int{http.StatusCreated}},
	"PUT /api/users/:id": {Summary: "change a user", Request: userRequest{}, Response: store.User{}},

	"GET /api/api-keys":     {Summary: "list API keys", Response: apiKeyView{}, List: true, Paged: true},
	"GET /api/api-keys/:id": {Summary: "read one API key", Response: apiKeyView{}},
	"POST /api/api-keys":    {Summary: "create an API key, shown once", Request: apiKeyRequest{}, Status: []int{http.StatusCreated}, Response: map[string]any{}},

	"GET /api/webhooks":         {Summary: "registered webhook sources", Response: webhookSourceView{}, List: true},
	"GET /api/webhooks/:source": {Summary: "one webhook source", Response: webhookSourceView{}},
	"POST /api/webhooks": {Summary: "register or replace a webhook source; a token mode's new token is shown once", Request: webhookSourceRequest{},
		Response: webhookSourceView{}, Or: []any{withToken{}}, Status: []int{http.StatusOK, http.StatusCreated}},
	"POST /api/webhooks/:source/rotate-token": {Summary: "issue a new token, the old one valid for the grace period", Request: rotateTokenRequest{},
		OptionalBody: true, Response: withToken{}},
	"POST /api/webhooks/:source/preview": {Summary: "the incidents a sample payload would produce", Request: previewRequest{},
		Response: previewView{}},

	"GET /api/playbooks/:id/executions": {Summary: "runs of a playbook", Response: executionView{}, List: true},
	"POST /api/playbooks/:id/run": {Summary: "run a playbook on an incident", Request: runRequest{},
		Response: executionView{}, Status: []int{http.StatusCreated, http.StatusAccepted}},
	"POST /api/playbooks/validate":  {Summary: "validate playbook YAML", Request: validateRequest{}, Response: map[string]any{}},
	"GET /api/playbooks/:id/export": {Summary: "a playbook as YAML", ContentType: "application/yaml"},

	"GET /health": {Summary: "overall status and version", Response: map[string]any{}, Raw: true,
		Status: []int{http.StatusOK, http.StatusServiceUnavailable}},
	"GET /live": {Summary: "200 while the process is alive", Response: map[string]any{}, Raw: true},
	"GET /ready": {Summary: "200 when ready to serve, 503 when not", Response: map[string]any{}, Raw: true,
		Status: []int{http.StatusOK, http.StatusServiceUnavailable}},
	"GET /metrics":       {Summary: "Prometheus metrics", ContentType: "text/plain"},
	"GET " + OpenAPIPath: {Summary: "this document", Response: map[string]any{}, Raw: true},
}
