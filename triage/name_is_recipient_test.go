package triage

import (
	"strings"
	"testing"
)

// An impersonation hit on the recipient's own name, from their personal
// mailbox, is someone mailing themselves; a hit on a colleague's name is
// still an impostor.
func TestImpersonationOfTheRecipientThemself(t *testing.T) {
	hit := func(matched string) map[string]any {
		return map[string]any{
			"senderAddress": "owen.pritchard77@gmail.com", "recipientAddress": "owen.pritchard@quarryhill-logistics.com",
			"subject": "Fwd: P60 and payslips for mortgage application", "identifiers": []any{"internal_user_name"},
			"definition": "Impersonation Protect - 1 hit (Tag Email)", "hits": 1.0, "action": "none",
			"impersonationResults": []any{map[string]any{"impersonationDomainSource": "internal_user_name",
				"similarDomain": matched, "checkerResult": "hit"}},
		}
	}
	self := hit("Owen Pritchard <owen.pritchard@quarryhill-logistics.com>")
	f := normalize(Incident{IncidentType: "phishing", RawData: self}, ExtractIndicators(self))
	if !f.Email.NameIsRecipient || f.Email.ImpersonatedInternal {
		t.Errorf("own name: name is recipient %v, impersonated internal %v", f.Email.NameIsRecipient, f.Email.ImpersonatedInternal)
	}
	a := analyze(t, Incident{IncidentType: "phishing", Severity: "low", RawData: self})
	if !strings.Contains(a.Verdict.Reasoning, "email.name_is_recipient") {
		t.Errorf("rule did not fire: %s", a.Verdict.Reasoning)
	}
	ceo := hit("Dana Whitfield <dana.whitfield@quarryhill-logistics.com>")
	f = normalize(Incident{IncidentType: "phishing", RawData: ceo}, ExtractIndicators(ceo))
	if f.Email.NameIsRecipient || !f.Email.ImpersonatedInternal {
		t.Errorf("colleague's name: name is recipient %v, impersonated internal %v", f.Email.NameIsRecipient, f.Email.ImpersonatedInternal)
	}
}
