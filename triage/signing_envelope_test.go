package triage

import "testing"

// A signing service's envelope carries the requester as its reply-to. When
// the payload shows the organisation corresponds with the requester's
// domain, the gateway's brand label is closed; a requester never seen, a
// single earlier message, or the In-Reply-To header is no such history.
func TestSigningEnvelopeFromAKnownRequester(t *testing.T) {
	envelope := map[string]any{
		"eventType": "policy_event", "id": "tmes-1", "creationTime": "2025-04-22T10:17:36Z", "severity": "medium",
		"category": "Phishing (heuristic)", "entityType": "email",
		"data": map[string]any{
			"sender": "dse_NA3@docusign.net", "senderName": "Harlow Partners via DocuSign",
			"replyTo": "contracts@harlowpartners.co.uk", "subject": "Please DocuSign: Lease renewal",
			"recipients":  []any{"f.moss@quillbrook.co.uk"},
			"authResults": map[string]any{"spf": "pass", "dkim": "pass (d=docusign.net)", "dmarc": "pass"},
			"links":       []any{"https://na3.docusign.net/Signing/EmailStart.aspx?a=4f1c9e2b"},
			"matchedRule": "Brand impersonation keywords ('Please DocuSign')", "action": "quarantine",
			"priorMessagesFromReplyToDomain": 23,
		},
	}
	data := func(change map[string]any) map[string]any {
		return withFields(envelope, map[string]any{"data": withFields(envelope["data"].(map[string]any), change)})
	}
	checkFires(t, "email.platform_envelope_from_known_requester", "phishing", "medium", []fireCase{
		{"the requester's domain with 23 earlier messages", envelope, true},
		{"the same as a plain seen-before flag", data(map[string]any{"priorMessagesFromReplyToDomain": nil, "replyToDomainSeenBefore": true}), true},
		{"one earlier message", data(map[string]any{"priorMessagesFromReplyToDomain": 1}), false},
		{"no history given", data(map[string]any{"priorMessagesFromReplyToDomain": nil}), false},
		{"only the threading header", data(map[string]any{"priorMessagesFromReplyToDomain": nil, "conversationHistory": map[string]any{"inReplyToHeaderPresent": true}}), false},
		{"a link off the service's domain", data(map[string]any{"links": []any{"https://docs-review.example-share.top/view"}}), false},
	})
}

// The product's link to its own alert page is not a link the message
// carried, wherever the product's console lives.
func TestAlertPageLinkIsNotAMessageLink(t *testing.T) {
	raw := map[string]any{
		"entityLink": "https://portal.mailguard-console.example.net/#/emails/5e0d1f9a",
		"sender":     "notices@harbourbank.example", "subject": "Statement ready",
		"links": []any{map[string]any{"url": "https://harbourbank.example/statements"}},
	}
	f := normalize(Incident{IncidentType: "phishing", Severity: "medium", RawData: raw}, ExtractIndicators(raw))
	for _, h := range f.Email.LinkHosts {
		if h == "portal.mailguard-console.example.net" {
			t.Fatalf("the alert's own page was read as a message link: %v", f.Email.LinkHosts)
		}
	}
	if len(f.Email.LinkHosts) != 1 {
		t.Errorf("link hosts = %v, want the message's one link", f.Email.LinkHosts)
	}
}
