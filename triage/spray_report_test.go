package triage

import "testing"

// TestAProviderSprayReportIsAnAttackOnManyAccounts holds that a provider's
// own detection of password spraying or credential stuffing (Okta
// ThreatInsight, Auth0's limit_mu block, PingOne's user velocity by IP) is
// read even without a count, is no harmless single failure, and is not
// held against the organisation's own network.
func TestAProviderSprayReportIsAnAttackOnManyAccounts(t *testing.T) {
	read := identityOf
	okta := map[string]any{"eventType": "security.threat.detected", "actor": map[string]any{"id": "unknown"},
		"client":  map[string]any{"ipAddress": "177.37.164.90", "zone": "null"},
		"outcome": map[string]any{"result": "DENY", "reason": "Password Spray"}}
	auth0 := map[string]any{"type": "limit_mu", "ip": "45.153.34.172", "description": "Too many failed logins from this IP address (multiple users). IP address blocked."}
	for name, raw := range map[string]map[string]any{"okta": okta, "auth0": auth0} {
		if !read(raw).SprayReported {
			t.Errorf("%s: the provider's spray detection was not read", name)
		}
	}
	if read(map[string]any{"eventType": "user.session.start", "outcome": map[string]any{"result": "FAILURE", "reason": "INVALID_CREDENTIALS"},
		"description": "no password spray seen from this address"}).SprayReported {
		t.Error("a negated mention is no detection")
	}
	ping := map[string]any{"riskPolicySet": map[string]any{"name": "Default"}, "event": map[string]any{"ip": "45.86.203.77"},
		"details": map[string]any{"userVelocityByIp": map[string]any{"level": "HIGH", "velocity": map[string]any{"distinctCount": 611.0}},
			"ipVelocityByUser": map[string]any{"level": "LOW", "velocity": map[string]any{"distinctCount": 1.0}}}}
	if got := read(ping).TargetedUsers; got != 611 {
		t.Errorf("PingOne user velocity by IP read as %d accounts, want 611", got)
	}
	quiet := map[string]any{"riskPolicySet": map[string]any{"name": "Default"}, "event": map[string]any{"ip": "45.86.203.77"},
		"details": map[string]any{"userVelocityByIp": map[string]any{"level": "LOW", "velocity": map[string]any{"distinctCount": 40.0}}}}
	if got := read(quiet).TargetedUsers; got != 0 {
		t.Errorf("a velocity PingOne rated low read as %d accounts sprayed", got)
	}

	tests := []struct {
		name string
		f    IdentityFields
		want bool
	}{
		{"blocked spray", IdentityFields{SprayReported: true, Result: "failure"}, true},
		{"own egress", IdentityFields{SprayReported: true, Result: "failure", CorporateEgress: true, KnownNetwork: true}, false},
		{"no report", IdentityFields{Result: "failure"}, false},
	}
	for _, tt := range tests {
		fired := firedRules(kindLogin, Fields{Identity: tt.f})
		if fired["identity.provider_reported_spray"] != tt.want {
			t.Errorf("%s: fired %v, want %v", tt.name, fired["identity.provider_reported_spray"], tt.want)
		}
		if tt.f.SprayReported && fired["identity.failed_no_harm"] {
			t.Errorf("%s: a reported spray is no harmless failure", tt.name)
		}
	}
}

// TestAnOktaNetworkZoneIsTheOrganisationsNetwork holds that an address Okta
// matched to one of the organisation's network zones is its own network,
// unless the zone is a block list.
func TestAnOktaNetworkZoneIsTheOrganisationsNetwork(t *testing.T) {
	read := func(zone string) IdentityFields {
		raw := map[string]any{"eventType": "user.session.start", "actor": map[string]any{"alternateId": "kiosk@example.org"},
			"client":  map[string]any{"ipAddress": "198.51.100.5", "zone": zone},
			"outcome": map[string]any{"result": "FAILURE"}}
		return identityOf(raw)
	}
	if f := read("Corporate HQ Egress"); !f.KnownNetwork || !f.CorporateEgress {
		t.Error("an address in the organisation's zone was not read as its network")
	}
	if !read("Toronto-Office").KnownNetwork {
		t.Error("an office zone whose name holds \"tor\" read as a Tor block list")
	}
	for _, zone := range []string{"null", "BlockedIpZone", "DefaultEnhancedDynamicZone", "Tor exit nodes"} {
		if read(zone).KnownNetwork {
			t.Errorf("zone %q read as the organisation's network", zone)
		}
	}
}

// TestASummaryWithNoSuccessIsAFailure holds that an aggregated sign-in
// record counting failures and zero successes reads as failed.
func TestASummaryWithNoSuccessIsAFailure(t *testing.T) {
	raw := map[string]any{"source_address": "45.134.26.77", "distinct_users_attempted": 146.0, "failed_attempts": 146.0, "successful_attempts": 0.0}
	f := identityOf(raw)
	if f.Result != "failure" {
		t.Errorf("result %q, want failure", f.Result)
	}
	if f.TargetedUsers != 146 {
		t.Errorf("targeted users %d, want 146", f.TargetedUsers)
	}
}
