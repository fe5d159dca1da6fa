package triage

import "testing"

func TestASignInTriedOnADisabledAccount(t *testing.T) {
	tests := []struct {
		name     string
		raw      map[string]any
		disabled bool
		result   string
	}{
		{"entra 50057", map[string]any{"userPrincipalName": "a@contoso.com", "status": map[string]any{"errorCode": 50057}}, true, "failure"},
		{"windows sub-status", map[string]any{"TargetUserName": "a", "EventID": 4625, "SubStatus": "0xC0000072"}, true, "failure"},
		{"reason code", map[string]any{"user": "a", "title": "VPN login", "events": []any{map[string]any{"result": "FAILED_ACCOUNT_DISABLED"}}}, true, "failure"},
		{"detection name", map[string]any{"user": "a", "title": "Authentication Attempt From Disabled Account"}, true, "failure"},
		{"disabled afterwards by remediation", map[string]any{"user": "a", "title": "Risky sign-in", "accountEnabled": false, "remediation": "account disabled by administrator"}, false, ""},
		{"ordinary failure", map[string]any{"user": "a", "status": map[string]any{"errorCode": 50126}}, false, "failure"},
	}
	for _, tt := range tests {
		f := normalize(Incident{IncidentType: "suspicious_login", RawData: tt.raw}, Indicators{})
		if f.Identity.DisabledAccount != tt.disabled || tt.result != "" && f.Identity.Result != tt.result {
			t.Errorf("%s: disabled %v result %q, want %v %q", tt.name, f.Identity.DisabledAccount, f.Identity.Result, tt.disabled, tt.result)
		}
	}
}
