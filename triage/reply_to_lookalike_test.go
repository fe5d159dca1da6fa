package triage

import "testing"

// A reply-to that imitates the sender's own domain diverts the thread to
// whoever registered it; a reply-to on an unrelated domain, or the
// sender's own, does not imitate anyone.
func TestReplyToImitatingTheSender(t *testing.T) {
	mail := map[string]any{
		"sender": "m.greaves@haldanehaulage.co.uk", "replyTo": "m.greaves@haldanehaulage-accounts.co.uk",
		"subject": "RE: Statement Feb-25", "authentication": map[string]any{"spf": "pass", "dkim": "pass", "dmarc": "pass"},
	}
	checkFires(t, "email.reply_to_imitates_sender", "phishing", "medium", []fireCase{
		{"the sender's name plus a word", mail, true},
		{"a misspelling of the sender's domain", withFields(mail, map[string]any{"replyTo": "m.greaves@haldanehaulgae.co.uk"}), true},
		{"an unrelated domain", withFields(mail, map[string]any{"replyTo": "tickets@helpdeskmail.net"}), false},
		{"the sender's own domain", withFields(mail, map[string]any{"replyTo": "accounts@haldanehaulage.co.uk"}), false},
	})
}

// Mail suites that file business e-mail compromise as payment or invoice
// fraud (Abnormal's "Invoice/Payment Fraud") name an impostor.
func TestPaymentFraudCategoryIsAnImpostor(t *testing.T) {
	raw := map[string]any{"category": "Invoice/Payment Fraud", "sender": "ap@supplier.example", "subject": "New bank details"}
	if got := normalize(Incident{IncidentType: "phishing", RawData: raw}, ExtractIndicators(raw)).Email.ThreatType; got != "impostor" {
		t.Errorf("threat type = %q, want impostor", got)
	}
}

// A signing service's envelope answers the colleague who sent it: a
// reply-to in the recipients' own organisation diverts nothing, while one
// at an outside domain still does.
func TestReplyToTheRecipientsOwnOrganisation(t *testing.T) {
	mail := map[string]any{
		"sender": "dse_na3@docusign.net", "replyTo": "jordan.ellis@brightlane.io", "recipient": "priya.raman@brightlane.io",
		"subject": "Complete with Docusign: Offer_Letter.pdf", "authentication": map[string]any{"spf": "pass", "dkim": "pass", "dmarc": "pass"},
	}
	for _, tc := range []struct {
		name     string
		raw      map[string]any
		mismatch bool
	}{
		{"a colleague's address", mail, false},
		{"an outside domain", withFields(mail, map[string]any{"replyTo": "jordan.ellis@brightlane-hr.com"}), true},
	} {
		if got := normalize(Incident{IncidentType: "phishing", RawData: tc.raw}, ExtractIndicators(tc.raw)).Email.ReplyToMismatch; got != tc.mismatch {
			t.Errorf("%s: reply-to mismatch %v, want %v", tc.name, got, tc.mismatch)
		}
	}
}
