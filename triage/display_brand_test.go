package triage

import "testing"

// A display name that claims a brand the sending domain does not belong
// to is an e-mail fact: it withholds the established-sender credit and
// makes a QR code from that sender a red flag.
func TestDisplayNameBrandIsAFact(t *testing.T) {
	raw := map[string]any{
		"sender": "security-noreply@m365-accountnotice.com", "senderDisplayName": "Microsoft 365 Security",
		"recipients": []any{"l.haddad@cortlandpartners.com"}, "subject": "Action required: re-register MFA",
		"authentication": map[string]any{"spf": "pass", "dkim": "pass", "dmarc": "pass"},
		"attachments":    []any{map[string]any{"fileName": "MFA_Reenrollment.pdf", "containsQrCode": true}},
	}
	f := normalize(Incident{IncidentType: "phishing", RawData: raw}, Indicators{})
	if f.Email.DisplayNameBrand != "microsoft" {
		t.Fatalf("display name brand %q, want microsoft", f.Email.DisplayNameBrand)
	}
	fired := firedRules(kindPhishing, f)
	if fired["email.established_aligned_sender"] || !fired["email.qr_code_from_unproven_sender"] {
		t.Fatalf("fired %v: want no established-sender credit and the QR rule", fired)
	}
	raw["sender"] = "account-security-noreply@accountprotection.microsoft.com"
	if f := normalize(Incident{IncidentType: "phishing", RawData: raw}, Indicators{}); f.Email.DisplayNameBrand != "" {
		t.Fatalf("Microsoft's own domain: display name brand %q", f.Email.DisplayNameBrand)
	}
}
