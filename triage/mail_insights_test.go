package triage

import "testing"

// abnormalThreat is an Abnormal threat message with the insight sentences
// given.
func abnormalThreat(insights ...string) map[string]any {
	list := make([]any, len(insights))
	for i, s := range insights {
		list[i] = s
	}
	return map[string]any{"threatId": "9c3e71b0", "messages": []any{map[string]any{
		"fromAddress": "ar@fabrikamindustrial.example", "senderDomain": "fabrikamindustrial.example",
		"toAddresses": []any{"ap@litware.example"}, "replyToEmails": []any{"ar@fabrikamindustrial.example"},
		"subject": "Updated remittance details effective July 1", "receivedTime": "2025-06-10T14:02:17Z",
		"attackType": "Invoice/Payment Fraud (BEC)", "attachmentNames": []any{"Remit_Update_Letter.pdf"},
		"summaryInsights": list,
	}}}
}

// The product's insight sentences are read like the headers they stand
// for; one that speaks against the sender is not read as vouching.
func TestMailInsightSentencesAreRead(t *testing.T) {
	f := normalize(Incident{IncidentType: "phishing", RawData: abnormalThreat(
		"SPF, DKIM and DMARC pass for fabrikamindustrial.example", "Vendor domain registered 2011",
		"Known vendor: 214 messages exchanged over 26 months")}, Indicators{}).Email
	if !f.AuthAligned || f.SenderAgeDays < 13*365 || !f.KnownCorrespondent {
		t.Fatalf("insights read as aligned=%v age=%d known=%v", f.AuthAligned, f.SenderAgeDays, f.KnownCorrespondent)
	}
	if f := normalize(Incident{IncidentType: "phishing", RawData: abnormalThreat("Sender domain registered 4 days ago")}, Indicators{}).Email; f.SenderAgeDays != 4 {
		t.Fatalf("age in days read as %d", f.SenderAgeDays)
	}
	against := normalize(Incident{IncidentType: "phishing", RawData: abnormalThreat(
		"Look-alike of known vendor domain (fabrikamindustrial.example)", "Sender authentication failed")}, Indicators{}).Email
	if against.AuthAligned || against.KnownCorrespondent {
		t.Fatalf("insights against the sender read as vouching: aligned=%v known=%v", against.AuthAligned, against.KnownCorrespondent)
	}
	// A password lure's wording, or no earlier mail at all, vouches for
	// nothing either.
	lure := normalize(Incident{IncidentType: "phishing", RawData: abnormalThreat(
		"Password expiry lure citing SPF and DKIM", "0 prior messages with this sender")}, Indicators{}).Email
	if lure.AuthAligned || lure.SPF == "pass" || lure.KnownCorrespondent {
		t.Fatalf("a lure's words read as vouching: spf=%q aligned=%v known=%v", lure.SPF, lure.AuthAligned, lure.KnownCorrespondent)
	}
}

// A bank-detail change from the vendor's own authenticated, established
// domain is not someone posing as the vendor (it may still be the
// vendor's compromised mailbox, which the gateway's verdict keeps open);
// the same request from an unproven sender is.
func TestPaymentChangeFromTheVendorsOwnDomainIsNoImpersonation(t *testing.T) {
	checkFires(t, "email.impersonation_payment_request", "phishing", "medium", []fireCase{
		{"authenticated known vendor", abnormalThreat("Authentication Passed (SPF, DKIM, DMARC)", "Established Vendor - Known Sender"), false},
		{"authenticated, domain registered 2011", abnormalThreat("SPF, DKIM and DMARC pass", "Vendor domain registered 2011"), false},
		{"nothing proves the sender", abnormalThreat("Request to change vendor banking details"), true},
	})
}
