package triage

import "testing"

// Defender for Office names a zero-hour purge's later verdict in the
// alert's title; with no threat field, the title gives the threat type.
func TestLaterVerdictThreatReadFromTheTitle(t *testing.T) {
	for title, want := range map[string]string{
		"Teams message containing malicious URL removed after delivery": "phish",
		"Email messages containing malware removed after delivery":      "malware",
		"Email messages removed after delivery":                         "",
	} {
		raw := map[string]any{"title": title, "serviceSource": "microsoftDefenderForOffice365",
			"description": "Zero-hour auto purge removed the message after delivery.",
			"evidence": []any{map[string]any{"@odata.type": "#microsoft.graph.security.analyzedMessageEvidence",
				"senderIp": "40.107.22.10", "p1Sender": map[string]any{"emailAddress": "a@example.org"}}}}
		e := normalize(Incident{IncidentType: "phishing", RawData: raw}, Indicators{}).Email
		if !e.LaterVerdict || e.ThreatType != want {
			t.Errorf("%q: later verdict %v, threat %q, want %q", title, e.LaterVerdict, e.ThreatType, want)
		}
	}
}
