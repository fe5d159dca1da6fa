package triage

import "testing"

// TestAnUntrustedAddressIsNotAUsualOne holds that an assessment named for
// an untrusted or unknown address (Auth0's UntrustedIP) that lists the
// sign-in's address does not make it a known network, and that Auth0's
// deny-list hit in the anonymisers category is an anonymising network.
func TestAnUntrustedAddressIsNotAUsualOne(t *testing.T) {
	raw := map[string]any{"type": "s", "description": "Successful login", "ip": "89.187.185.171", "user_name": "l.brandt@keystoneops.io",
		"details": map[string]any{"riskAssessment": map[string]any{"assessments": map[string]any{
			"UntrustedIP": map[string]any{"confidence": "low", "code": "found_on_deny_list",
				"details": map[string]any{"ip": "89.187.185.171", "matches": "89.187.185.0/24", "source": "FIREHOL", "category": "anonymizers"}}}}}}
	f := normalize(Incident{IncidentType: kindLogin, RawData: raw}, Indicators{}).Identity
	if f.KnownNetwork {
		t.Error("an address on a deny list read as the user's usual network")
	}
	if !f.Anonymizer {
		t.Error("a deny-list hit among anonymisers was not read")
	}
	usual := map[string]any{"ipAddress": "203.0.113.7", "userPrincipalName": "a@example.com", "knownIps": []any{"203.0.113.7"}}
	if !normalize(Incident{IncidentType: kindLogin, RawData: usual}, Indicators{}).Identity.KnownNetwork {
		t.Error("an address listed among the known ones was not read")
	}
}
