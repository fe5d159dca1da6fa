package triage

import "testing"

// Mimecast's impersonation identifiers: a newly observed domain is new to
// the organisation's mail (a first contact), not newly registered; a
// colleague's name alone on an established business domain is a namesake.
func TestMimecastImpersonationIdentifiers(t *testing.T) {
	hold := func(identifiers ...any) map[string]any {
		return map[string]any{"data": []any{map[string]any{
			"senderAddress": "chris.taylor@meridian-freight.com", "fromHeader": `"Chris Taylor" <chris.taylor@meridian-freight.com>`,
			"recipientAddress": "ap@contoso.com", "subject": "RE: PO 44812 delivery window",
			"definition": "Default Impersonation Protection", "hits": len(identifiers), "identifiers": identifiers, "action": "none",
		}}}
	}
	f := normalize(Incident{IncidentType: "phishing", RawData: hold("newly_observed_domain")}, Indicators{})
	if !f.Email.FirstContact || f.Email.NewDomain {
		t.Fatalf("newly observed domain: first contact %v, new domain %v", f.Email.FirstContact, f.Email.NewDomain)
	}
	if f := normalize(Incident{IncidentType: "phishing", RawData: hold("newly_registered_domain")}, Indicators{}); !f.Email.NewDomain {
		t.Fatal("newly registered domain not read as new")
	}
	checkClosed(t, "phishing", []closeCase{
		{"namesake at a supplier", hold("internal_user_name"), true},
		{"namesake with a reply-to mismatch", hold("internal_user_name", "reply_address_mismatch"), false},
		{"namesake on a similar domain", hold("internal_user_name", "similar_internal_domain"), false},
	})
}
