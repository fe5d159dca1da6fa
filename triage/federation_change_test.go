package triage

import "testing"

// A change of how the tenant authenticates is read from the audit event
// that made it, across providers; the same event beside a role grant
// counts as made by a new administrator. An ordinary sign-in, and a
// cross-tenant setting that does not trust the partner's MFA, are not.
func TestFederationChange(t *testing.T) {
	audit := func(events ...map[string]any) map[string]any {
		list := make([]any, len(events))
		for i, e := range events {
			list[i] = e
		}
		return map[string]any{"value": list}
	}
	event := func(name string) map[string]any {
		return map[string]any{"activityDisplayName": name, "result": "success",
			"initiatedBy": map[string]any{"user": map[string]any{"userPrincipalName": "a@contoso.example", "ipAddress": "193.32.162.55"}}}
	}
	tests := []struct {
		name      string
		raw       map[string]any
		change    bool
		withGrant bool
	}{
		{"domain federated", audit(event("Set domain authentication")), true, false},
		{"federation settings after a role grant", audit(event("Add member to role"), event("Set federation settings on domain")), true, true},
		{"Okta identity provider created", map[string]any{"eventType": "system.idp.lifecycle.create", "outcome": map[string]any{"result": "SUCCESS"}}, true, false},
		{"Google domain-wide delegation", map[string]any{"events": []any{map[string]any{"type": "SECURITY_SETTINGS", "name": "AUTHORIZE_API_CLIENT_ACCESS"}}}, true, false},
		{"partner MFA trusted", map[string]any{"operationName": "Update cross-tenant access settings",
			"crossTenantAccessPolicy": map[string]any{"inboundTrust": map[string]any{"isMfaAccepted": true}}}, true, false},
		{"partner MFA not trusted", map[string]any{"operationName": "Update cross-tenant access settings",
			"crossTenantAccessPolicy": map[string]any{"inboundTrust": map[string]any{"isMfaAccepted": false}}}, false, false},
		{"a role grant alone", audit(event("Add member to role")), false, false},
		{"a sign-in", map[string]any{"userPrincipalName": "a@contoso.example", "appDisplayName": "Office 365", "status": map[string]any{"errorCode": 0}}, false, false},
	}
	for _, tc := range tests {
		a := normalize(Incident{IncidentType: "suspicious_login", RawData: tc.raw}, Indicators{}).Alert
		if (a.FederationChange != "") != tc.change || a.FederationWithGrant != tc.withGrant {
			t.Errorf("%s: change %q, with grant %v", tc.name, a.FederationChange, a.FederationWithGrant)
		}
	}
}
