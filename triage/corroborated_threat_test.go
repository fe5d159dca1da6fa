package triage

import "testing"

// TestAPlainDocumentDoesNotCorroborateAGatewayVerdict holds that the
// gateway's threat label on a message is backed by the message's own red
// flags, and that an invoice PDF or a spreadsheet attached is no red flag
// of its own, while a page or a script is.
func TestAPlainDocumentDoesNotCorroborateAGatewayVerdict(t *testing.T) {
	for attachment, want := range map[string]bool{
		"Invoice_10442.pdf":        false,
		"Statement March.xlsx":     false,
		"Remittance_Advice.html":   true,
		"Payment details.pdf.js":   true,
		"Quarterly-report.PDF.iso": true,
	} {
		f := Fields{Email: EmailFields{ThreatType: "impostor", Attachments: []string{attachment}}}
		if got := firedRules(kindPhishing, f)["email.threat_corroborated"]; got != want {
			t.Errorf("%s: corroborated %v, want %v", attachment, got, want)
		}
	}
}
