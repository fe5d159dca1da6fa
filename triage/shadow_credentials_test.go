package triage

import "testing"

// TestAKeyCredentialWrittenByAUserIsShadowCredentials holds that a 5136
// event adding a value to msDS-KeyCredentialLink names its writer, unless
// the writer is a machine account or Entra Connect's connector, or the
// value was removed.
func TestAKeyCredentialWrittenByAUserIsShadowCredentials(t *testing.T) {
	event := func(writer, op string) map[string]any {
		return map[string]any{"System": map[string]any{"EventID": 5136.0, "Channel": "Security"},
			"EventData": map[string]any{"SubjectUserName": writer, "ObjectDN": "CN=DC01,OU=Domain Controllers,DC=corp,DC=example",
				"ObjectClass": "computer", "AttributeLDAPDisplayName": "msDS-KeyCredentialLink", "OperationType": op}}
	}
	read := func(raw map[string]any) Fields {
		return normalize(Incident{IncidentType: "unauthorized_access", RawData: raw}, Indicators{})
	}
	f := read(event("l.petrov", "%%14674"))
	if f.Alert.ShadowCredentials != "l.petrov" {
		t.Fatalf("writer read as %q", f.Alert.ShadowCredentials)
	}
	if !firedRules("generic", f)["alert.shadow_credentials"] {
		t.Error("the rule did not fire")
	}
	for name, raw := range map[string]map[string]any{
		"machine account":   event("DC01$", "%%14674"),
		"sync connector":    event("MSOL_4f2a9c81be17", "%%14674"),
		"value deleted":     event("l.petrov", "%%14675"),
		"another attribute": {"EventID": 5136.0, "SubjectUserName": "l.petrov", "AttributeLDAPDisplayName": "description", "OperationType": "%%14674"},
	} {
		if got := read(raw).Alert.ShadowCredentials; got != "" {
			t.Errorf("%s read as shadow credentials by %q", name, got)
		}
	}
}
