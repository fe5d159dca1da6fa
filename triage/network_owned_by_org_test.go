package triage

import "testing"

// An address whose network record names the user's own organisation is
// its office or VPN range; another owner, or a free-mail user's provider,
// is not.
func TestNetworkRecordNamingTheUsersOrganisation(t *testing.T) {
	signIn := func(user, isp string) map[string]any {
		return map[string]any{
			"userPrincipalName": user, "ipAddress": "198.51.100.77", "status": map[string]any{"errorCode": 0.0},
			"networkDetails": map[string]any{"isp": isp, "asn": 64513.0},
		}
	}
	for _, c := range []struct {
		user, isp string
		want      bool
	}{
		{"olivia.grant@northwindlogistics.com", "Northwind Logistics Ltd", true},
		{"olivia.grant@northwindlogistics.com", "Hetzner Online GmbH", false},
		{"olivia.grant@gmail.com", "Google LLC", false},
		{"j.doe@acme.io", "Acme Hosting", false},
		{"r.lee@digitalco.com", "DigitalOcean, LLC", false},
		{"j.ruiz@example.com", "Example Hosting Ltd", false},
		{"j.ruiz@example.com", "Pacific Example Networks", false},
	} {
		if got := identityOf(signIn(c.user, c.isp)).CorporateEgress; got != c.want {
			t.Errorf("%s on %q: corporate egress %v, want %v", c.user, c.isp, got, c.want)
		}
	}
}
