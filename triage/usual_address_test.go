package triage

import "testing"

// TestAnAddressTheAccountUsuallyUsesIsAKnownNetwork holds that a sign-in
// from an address the payload lists among the account's usual ones comes
// from a known network, and one from elsewhere does not.
func TestAnAddressTheAccountUsuallyUsesIsAKnownNetwork(t *testing.T) {
	signIn := func(ip string) map[string]any {
		return map[string]any{"source_user": `corp\l.brennan`, "public_ip": ip, "status": "success",
			"directory_context": map[string]any{"usualPublicIPs": []any{"198.51.100.204", "203.0.113.9"}, "usualCountries": []any{"US"}}}
	}
	if !normalize(Incident{IncidentType: kindLogin, RawData: signIn("198.51.100.204")}, Indicators{}).Identity.KnownNetwork {
		t.Error("the account's usual address was not a known network")
	}
	if normalize(Incident{IncidentType: kindLogin, RawData: signIn("192.0.2.77")}, Indicators{}).Identity.KnownNetwork {
		t.Error("an address outside the usual ones read as known")
	}
}
