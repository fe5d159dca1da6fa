package triage

import "testing"

// TestAProviderSprayDetectionMeansThePasswordIsKnown holds that Entra's
// passwordSpray risk detection, raised only when a sprayed password was
// right, marks the account's password as known to the sprayer, and that a
// failed sign-in which got past the password is no harmless failure.
func TestAProviderSprayDetectionMeansThePasswordIsKnown(t *testing.T) {
	read := func(raw map[string]any) IdentityFields {
		return normalize(Incident{IncidentType: kindLogin, RawData: raw}, Indicators{}).Identity
	}
	detection := map[string]any{"riskEventType": "passwordSpray", "riskState": "atRisk", "riskLevel": "high",
		"ipAddress": "203.0.113.90", "additionalInfo": `[{"Key":"signInResult","Value":"Success"}]`}
	if !read(detection).SprayedPassword {
		t.Fatal("the risk detection's type was not read")
	}
	if read(map[string]any{"title": "Password spray attack against Azure AD application", "ipAddress": "203.0.113.90"}).SprayedPassword {
		t.Error("a SIEM rule that counts failures is no provider finding a correct password")
	}
	tests := []struct {
		name string
		f    IdentityFields
		want bool
	}{
		{"spray success", IdentityFields{SprayedPassword: true, Result: "success"}, true},
		{"stopped at MFA", IdentityFields{SprayedPassword: true, Result: "failure", PasswordAccepted: true}, true},
		{"locked out", IdentityFields{SprayedPassword: true, Result: "failure"}, false},
		{"dismissed", IdentityFields{SprayedPassword: true, Result: "success", RiskDismissed: true}, false},
		{"own egress", IdentityFields{SprayedPassword: true, Result: "success", CorporateEgress: true}, false},
	}
	for _, tt := range tests {
		if got := firedRules(kindLogin, Fields{Identity: tt.f})["identity.provider_found_sprayed_password"]; got != tt.want {
			t.Errorf("%s: fired %v, want %v", tt.name, got, tt.want)
		}
	}
	got := firedRules(kindLogin, Fields{Identity: IdentityFields{Result: "failure", PasswordAccepted: true}})
	if got["identity.failed_no_harm"] {
		t.Error("a failure past the password is not harmless")
	}
}
