package web

import (
	"strings"
	"testing"
)

// TestConnectorsPageKeepsSecretsWriteOnly renders the connectors page
// with a configured connector, a simulated one and an add form, and
// checks that fields come from the vendor and no secret is shown.
func TestConnectorsPageKeepsSecretsWriteOnly(t *testing.T) {
	vendor := connectorVendor{Type: "okta", Title: "Okta", Kinds: []string{"identity"}, Fields: []connectorField{
		{Name: "base_url", Required: true}, {Name: "api_token", Secret: true, Required: true},
	}}
	conn := connectorView{ID: "okta-prod", Type: "okta", Title: "Okta", Kinds: []string{"identity"}, Serves: []string{"identity"},
		Settings: map[string]string{"base_url": "https://corp.okta.example"}, SecretsSet: []string{"api_token"},
		Health: connectorStatus{Status: "healthy"}, Vendor: &vendor}
	sim := connectorView{ID: "simulated", Type: "simulated", Simulated: true, Builtin: true, Serves: []string{"edr"}}
	v := &view{User: sessionUser{Role: "admin"}, CSRF: "tok", Data: &connectorsData{
		Connectors: []connectorView{conn, sim}, Vendors: []connectorVendor{vendor}, New: &vendor,
		Tested: "okta-prod", TestStatus: "unhealthy", TestMessage: "authentication failed",
	}}
	var out strings.Builder
	if err := mustParsePages().byName["adminconnectors"].ExecuteTemplate(&out, "content", v); err != nil {
		t.Fatal(err)
	}
	page := out.String()
	for _, want := range []string{`value="https://corp.okta.example"`, `name="s_api_token"`, "stored", "simulated",
		`name="serves" value="identity" checked`, "authentication failed", `action="/admin/connectors/new"`} {
		if !strings.Contains(page, want) {
			t.Errorf("page lacks %q", want)
		}
	}
	if strings.Contains(page, `action="/admin/connectors/simulated"`) {
		t.Error("the simulated connectors offer an edit form")
	}
}
