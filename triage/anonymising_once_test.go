package triage

import (
	"strings"
	"testing"
)

// TestAnAnonymisingNetworkCountsOnce holds that the login analysis' own
// note of a proxy or VPN network and the rules that read the same network
// weigh it once, not twice.
func TestAnAnonymisingNetworkCountsOnce(t *testing.T) {
	raw := map[string]any{
		"eventType": "user.authentication.sso", "outcome": map[string]any{"result": "SUCCESS"},
		"actor":           map[string]any{"alternateId": "j.ruiz@example.com"},
		"client":          map[string]any{"ipAddress": "198.51.100.214", "geographicalContext": map[string]any{"country": "United States"}},
		"securityContext": map[string]any{"isProxy": true, "asOrg": "Example Hosting"},
	}
	a := analyze(t, Incident{IncidentType: "suspicious_login", Severity: "medium", RawData: raw})
	r := a.Verdict.Reasoning
	if !strings.Contains(r, "anonymising or hosting infrastructure") || !strings.Contains(r, "identity.anonymous_success") {
		t.Fatalf("the network was not read twice to begin with: %s", r)
	}
	if !strings.Contains(r, "counted once") {
		t.Errorf("the network counted twice: %s", r)
	}
}
