package triage

import (
	"strings"
	"testing"
)

// A security key enrolled by the session that signs in with it proves
// nothing about who holds it: a temporary access pass used from a hosting
// network, a FIDO2 key registered from the same address, then a sign-in
// with the key is a takeover, not a phishing-resistant sign-in. The chain
// is read past a ticket note among its events, the audit event's user is
// its principal name rather than the address beside it, and the network
// of the session's first sign-in carries over to the last.
func TestFactorEnrolledBySessionIsNotPhishResistantEvidence(t *testing.T) {
	raw := map[string]any{
		"search_name": "Temporary Access Pass used from new network",
		"contributing_events": []any{
			map[string]any{
				"userPrincipalName": "j.okonkwo@fenwick.example", "ipAddress": "185.159.82.17",
				"autonomousSystemNumber": 9009, "location": map[string]any{"city": "Bucharest", "countryOrRegion": "RO"},
				"authenticationDetails": []any{map[string]any{"authenticationMethod": "Temporary Access Pass", "succeeded": true}},
				"status":                map[string]any{"errorCode": 0}, "createdDateTime": "2025-06-12T13:24:37Z",
			},
			map[string]any{"number": "INC0092817", "short_description": "Caller lost phone, requests temporary access pass"},
			map[string]any{
				"activityDisplayName": "User registered security info", "result": "success", "activityDateTime": "2025-06-12T13:27:02Z",
				"initiatedBy": map[string]any{"user": map[string]any{"userPrincipalName": "j.okonkwo@fenwick.example", "ipAddress": "185.159.82.17"}},
			},
			map[string]any{
				"userPrincipalName": "j.okonkwo@fenwick.example", "ipAddress": "185.159.82.17",
				"authenticationDetails": []any{map[string]any{"authenticationMethod": "FIDO2 security key", "succeeded": true}},
				"status":                map[string]any{"errorCode": 0}, "createdDateTime": "2025-06-12T13:30:51Z",
			},
		},
	}
	f := normalize(Incident{IncidentType: "suspicious_login", RawData: raw}, Indicators{})
	if !f.Identity.SessionFactorEnrolled || !f.Identity.Hosting || f.Identity.User != "j.okonkwo@fenwick.example" {
		t.Fatalf("chain read as %+v", f.Identity)
	}
	a := analyze(t, Incident{IncidentType: "suspicious_login", Severity: "high", RawData: raw})
	if strings.Contains(a.Verdict.Reasoning, "identity.phish_resistant") || a.Verdict.Classification == ClassBenign {
		t.Errorf("the key the session enrolled was credited: %s %s", a.Verdict.Classification, a.Verdict.Reasoning)
	}
}

// A Reply-To address is not a recipient: a sender replying to itself does
// not make its mail the organisation's own.
func TestReplyToIsNotARecipient(t *testing.T) {
	f := normalize(Incident{IncidentType: "phishing", RawData: map[string]any{
		"from_address": "it-helpdesk@m365-mailnotice.example",
		"email_headers": map[string]any{
			"Reply-To":               "<it-helpdesk@m365-mailnotice.example>",
			"Authentication-Results": "spf=pass smtp.mailfrom=m365-mailnotice.example; dkim=pass; dmarc=pass",
		},
	}}, Indicators{})
	if f.Email.Internal {
		t.Error("a sender whose Reply-To is itself was read as internal mail")
	}
}
