package triage

import "testing"

// A SIEM's lookup that categorises the source address as the
// organisation's own egress, or names its gateway in the ASN, makes the
// sign-in corporate egress; another category does not.
func TestCorporateEgressIsReadFromTheSourceCategoryAndASN(t *testing.T) {
	tests := []struct {
		name string
		net  map[string]any
		want bool
	}{
		{"category", map[string]any{"src_category": []any{"corporate_proxy"}}, true},
		{"gateway in the ASN", map[string]any{"src_asn": "AS62044 ZSCALER-SWITZERLAND"}, true},
		{"other category", map[string]any{"src_category": []any{"residential_isp"}}, false},
	}
	for _, tt := range tests {
		cur := newDoc(tt.net)
		if got := corporateEgress(cur, ""); got != tt.want {
			t.Errorf("%s: corporate egress %v, want %v", tt.name, got, tt.want)
		}
	}
}

// A record that gives only the network's number (Google's login audit
// networkInfo.ipAsn) is corporate egress when the number is a security
// gateway's; another number is not.
func TestCorporateEgressIsReadFromAGatewaysASNNumber(t *testing.T) {
	for asn, want := range map[float64]bool{53813: true, 7922: false} {
		raw := map[string]any{"actor": map[string]any{"email": "r.gupta@example.com"}, "ipAddress": "136.226.62.19",
			"networkInfo": map[string]any{"ipAsn": []any{asn}, "regionCode": "US"},
			"events":      []any{map[string]any{"type": "login", "name": "login_success"}}}
		if got := normalize(Incident{IncidentType: kindLogin, RawData: raw}, Indicators{}).Identity.CorporateEgress; got != want {
			t.Errorf("AS%v: corporate egress %v, want %v", asn, got, want)
		}
	}
}
