package triage

import "testing"

func TestHostingASNReadsTheNumberWithOrWithoutItsPrefix(t *testing.T) {
	for asn, want := range map[string]bool{
		"14061": true, "AS14061": true, "as14061": true,
		"15169": false, "AS8075": false, "": false, "DigitalOcean": false,
	} {
		if got := hostingASN(asn); got != want {
			t.Errorf("hostingASN(%q) = %v, want %v", asn, got, want)
		}
	}
}
