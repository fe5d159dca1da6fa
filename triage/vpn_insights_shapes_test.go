package triage

import "testing"

// TestGlobalProtectAndDirectoryInsightsLoginsAreSignIns holds that a
// GlobalProtect login record is read as a sign-in from its public
// address and source region (not the tunnel's private address), and a
// single JumpCloud Directory Insights login as a sign-in whose "mfa":
// false means the password alone.
func TestGlobalProtectAndDirectoryInsightsLoginsAreSignIns(t *testing.T) {
	gp := map[string]any{"log_type": "globalprotect", "log_subtype": "login", "stage": "login", "auth_method": "LDAP",
		"source_user": `corp\rkoslowski`, "source_region": "MD", "public_ip": "198.51.100.210", "private_ip": "10.212.134.77",
		"endpoint_device_name": "localhost", "endpoint_os_type": "Linux", "status": "success"}
	f := normalize(Incident{IncidentType: "unauthorized_access", RawData: gp}, Indicators{})
	if f.Shape != "identity" || f.Identity.SourceIP != "198.51.100.210" || f.Identity.Country != "MD" || f.Identity.InternalSource {
		t.Errorf("GlobalProtect: shape %q, address %q, country %q, internal %v", f.Shape, f.Identity.SourceIP, f.Identity.Country, f.Identity.InternalSource)
	}
	jc := map[string]any{"event_type": "admin_login_attempt", "service": "directory", "client_ip": "198.51.100.121",
		"initiated_by": map[string]any{"type": "admin", "email": "ops-admin@example.net"}, "success": true, "mfa": false}
	f = normalize(Incident{IncidentType: "unauthorized_access", RawData: jc}, Indicators{})
	if f.Shape != "identity" || !f.Identity.SingleFactor || f.Identity.Result != "success" || !f.Identity.Admin {
		t.Errorf("Directory Insights: shape %q, single factor %v, result %q, admin %v", f.Shape, f.Identity.SingleFactor, f.Identity.Result, f.Identity.Admin)
	}
}
