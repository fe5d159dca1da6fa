package triage

import "testing"

// Enrichment keyed by address describes every address the alert names; a
// sign-in is read with its own address's note, not with the office egress
// its session started from.
func TestSignInReadsOnlyItsOwnAddressNote(t *testing.T) {
	raw := map[string]any{
		"Username": "t.user@example.com", "SourceIp": "192.0.2.214", "PreviousIp": "203.0.113.10",
		"ip_context": map[string]any{
			"203.0.113.10": map[string]any{"as_org": "Example corporate egress (Zscaler)", "country": "US"},
			"192.0.2.214":  map[string]any{"as_org": "Datacamp Limited", "type": "hosting", "country": "NL"},
		},
	}
	id := normalize(Incident{IncidentType: "suspicious_login", RawData: raw}, Indicators{}).Identity
	if id.CorporateEgress || id.KnownNetwork || !id.Hosting || id.Country != "NL" {
		t.Errorf("read the other address's note: %+v", id)
	}
	// The office's own sign-in keeps its note.
	raw["SourceIp"] = "203.0.113.10"
	if id := normalize(Incident{IncidentType: "suspicious_login", RawData: raw}, Indicators{}).Identity; !id.CorporateEgress || id.Hosting {
		t.Errorf("the office sign-in lost its note: %+v", id)
	}
}
