package triage

import "testing"

// TestRiskReasonsNameTheNetwork holds that a provider's risk reasons are
// read for the network: a hosting provider named there is hosting, and an
// address many of the organisation's other users sign in from is its own.
func TestRiskReasonsNameTheNetwork(t *testing.T) {
	read := func(reasons string) IdentityFields {
		raw := map[string]any{"event_type_id": 5.0, "ipaddr": "95.217.183.40", "user_name": "Elena Marsh", "risk_score": 95.0, "risk_reasons": reasons}
		return identityOf(raw)
	}
	if f := read("Impossible travel: last login from Phoenix 22 minutes ago; IP belongs to a hosting provider (Hetzner Online GmbH, FI); Never seen browser"); !f.Hosting {
		t.Error("a hosting provider named in the risk reasons was not read")
	}
	f := read("Login from hosting provider network (Microsoft Azure, UK South); IP address used by 214 other users in this account in the last 30 days")
	if !f.Hosting || !f.KnownNetwork {
		t.Errorf("hosting %v, known network %v; want both", f.Hosting, f.KnownNetwork)
	}
	if read("New device; IP address used by 2 other users in this account").KnownNetwork {
		t.Error("an address two others used is not the organisation's egress")
	}
}
