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
