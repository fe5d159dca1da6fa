package triage

import "testing"

// Traffic from the networks Tor exit operators run is Tor traffic, for a
// sign-in that states its autonomous system and for an audit event that
// gives only the caller's address; a neighbouring network is not.
func TestTorExitOperatorNetworks(t *testing.T) {
	workload := func(ip string, asn float64) map[string]any {
		return map[string]any{
			"appDisplayName": "HR-Payroll-Sync", "ipAddress": ip, "autonomousSystemNumber": asn,
			"clientCredentialType": "clientSecret", "signInEventTypes": []any{"servicePrincipal"},
			"status": map[string]any{"errorCode": 0.0},
		}
	}
	for _, c := range []struct {
		ip   string
		asn  float64
		want bool
	}{
		{"203.0.113.47", 60729, true},
		{"185.220.101.47", 64500, true},
		{"185.220.104.9", 64500, false},
		{"203.0.113.47", 64500, false},
	} {
		if got := identityOf(workload(c.ip, c.asn)).Tor; got != c.want {
			t.Errorf("sign-in from %s (AS%.0f): tor %v, want %v", c.ip, c.asn, got, c.want)
		}
	}

	destroy := func(ip string) map[string]any {
		return map[string]any{
			"action": "repo.destroy", "actor": "a-lindqvist", "actor_ip": ip, "org": "fjord-robotics",
			"repo": "fjord-robotics/fleet-firmware", "programmatic_access_type": "Personal access token (classic)",
			"token_scopes": "admin:org,delete_repo,repo", "user_agent": "Go-http-client/2.0",
		}
	}
	for ip, want := range map[string]bool{"109.70.100.26": true, "109.70.101.26": false} {
		inc := Incident{IncidentType: "account_compromise", Severity: "critical", RawData: destroy(ip)}
		if got := normalize(inc, Indicators{}).Cloud.Tor; got != want {
			t.Errorf("audit event from %s: tor %v, want %v", ip, got, want)
		}
	}
}
