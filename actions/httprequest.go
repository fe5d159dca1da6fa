package actions

// HTTPRequest is the generic HTTP action: one templated request to a host
// an admin allowed in the outbound setting's http_request_hosts.
const HTTPRequest = "http_request"

// CategoryIntegration groups actions that call arbitrary systems.
const CategoryIntegration = "integration"

// ConnectorHTTP is the kind of tool that performs http_request.
const ConnectorHTTP = "http"

// httpRequestType calls a system no dedicated connector covers. It reaches
// outside Vigil with whatever the playbook author wrote, so an analyst
// approves it by default.
var httpRequestType = Type{
	Name:        HTTPRequest,
	Description: "Send one HTTP request to an allow-listed host and map fields of its JSON answer into the result.",
	Category:    CategoryIntegration, Connector: ConnectorHTTP, DefaultApprovalLevel: "analyst",
	Parameters: []Param{
		{Name: "method", Type: TypeString, Enum: []string{"GET", "POST", "PUT", "PATCH", "DELETE"}, Default: "POST"},
		{Name: "url", Type: TypeString, Required: true, MaxLength: 2000,
			Description: "https URL whose host is listed in setting outbound.http_request_hosts"},
		{Name: "headers", Type: TypeObject, Description: "header names to string values; never credentials"},
		{Name: "body", Type: TypeObject, Description: "JSON body sent with the request"},
		{Name: "credential", Type: TypeString, MaxLength: 200,
			Description: "id of a configured http_credential connector whose sealed secret is sent as a header"},
		{Name: "expected_status", Type: TypeInteger,
			Description: "status the answer must have; without it any 2xx is accepted"},
		{Name: "output", Type: TypeObject,
			Description: "result field names to dotted paths into the JSON answer (for example {\"ticket\": \"data.id\"})"},
	},
}
