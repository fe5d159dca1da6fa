package triage

import "testing"

// Mailbox rules are read from the shapes that report them: Microsoft 365
// audit parameters, Entra ID risk-detection details, a SIEM's flattened
// parameters and a cmdlet's Identity.
func TestMailRuleIsReadFromEachShape(t *testing.T) {
	for _, tc := range []struct {
		name, payload string
		want          MailRuleFields
	}{
		{"audit log parameters", `{"Operation":"New-InboxRule","UserId":"l.fernandez@contoso.com","ObjectId":"contoso.onmicrosoft.com/l.fernandez\\.",
			"Parameters":[{"Name":"Name","Value":"."},{"Name":"SubjectOrBodyContainsWords","Value":"invoice;payment;IBAN"},
			{"Name":"MoveToFolder","Value":"RSS Subscriptions"},{"Name":"MarkAsRead","Value":"True"}]}`,
			MailRuleFields{Present: true, Known: true, Name: ".", ObscureName: true, Hides: true, Financial: true}},
		{"risk detection details", `{"riskEventType":"suspiciousInboxForwarding","userPrincipalName":"r.sokolova@alderbank.com",
			"additionalInfo":"[{\"Key\":\"mailboxRuleName\",\"Value\":\"..\"},{\"Key\":\"mailboxRuleActions\",\"Value\":\"ForwardTo: renata.cfo@gmail.com; MoveToFolder: RSS Subscriptions\"},{\"Key\":\"mailboxRuleConditions\",\"Value\":\"SubjectOrBodyContainsWords: wire, remittance\"}]"}`,
			MailRuleFields{Present: true, Known: true, Name: "..", ObscureName: true, Hides: true, Financial: true, ForwardsTo: "renata.cfo@gmail.com", ForwardsExternal: true}},
		{"SIEM parameters object", `{"event":{"action":"New-InboxRule"},"user":{"id":"tpereira@crestview.com"},
			"o365":{"audit":{"Parameters":{"Name":"Closings","ForwardTo":"tpereira.closings@outlook.com","SubjectOrBodyContainsWords":"escrow;closing"}}}}`,
			MailRuleFields{Present: true, Known: true, Name: "Closings", Financial: true, ForwardsTo: "tpereira.closings@outlook.com", ForwardsExternal: true}},
		{"cmdlet identity", `{"Operation":"Set-InboxRule","UserId":"d.mbeki@lakeshore.org",
			"Parameters":[{"Name":"Identity","Value":"d.mbeki\\,,,"},{"Name":"DeleteMessage","Value":"True"}]}`,
			MailRuleFields{Present: true, Known: true, Name: ",,,", ObscureName: true, Hides: true}},
		{"forward within the organisation", `{"Operation":"New-InboxRule","UserId":"a.b@fabrikam.com",
			"Parameters":[{"Name":"Name","Value":"To my team"},{"Name":"ForwardTo","Value":"ops@eu.fabrikam.com"}]}`,
			MailRuleFields{Present: true, Known: true, Name: "To my team", ForwardsTo: "ops@eu.fabrikam.com"}},
		{"mailbox forwarding set by an administrator", `{"Operation":"Set-Mailbox","UserId":"adm-tbrennan@brantwoodfreight.com","ObjectId":"brantwoodfreight.onmicrosoft.com/Gary Pruitt",
			"Parameters":[{"Name":"Identity","Value":"gary.pruitt@brantwoodfreight.com"},{"Name":"ForwardingAddress","Value":"dispatch-leads@brantwoodfreight.com"},
			{"Name":"DeliverToMailboxAndForward","Value":"True"}]}`,
			MailRuleFields{Present: true, Known: true, ForwardsTo: "dispatch-leads@brantwoodfreight.com"}},
		{"a mail about inbox rules", `{"subject":"How attackers abuse inbox rules","sender":"news@securityweekly.com"}`,
			MailRuleFields{Present: true}},
		{"no rule", `{"title":"Impossible travel","userPrincipalName":"a.b@fabrikam.com"}`, MailRuleFields{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := readMailRule(newDoc(mustJSON(t, tc.payload))); got != tc.want {
				t.Fatalf("read %+v\nwant %+v", got, tc.want)
			}
		})
	}
}

// A rule that hides payment mail is the compromise; one that files the
// owner's mail under a plain name is closed.
func TestMailRuleVerdicts(t *testing.T) {
	hiding := map[string]any{
		"Operation": "New-InboxRule", "UserId": "l.fernandez@contoso.com", "ClientIP": "203.0.113.9",
		"Parameters": []any{
			map[string]any{"Name": "Name", "Value": "."},
			map[string]any{"Name": "SubjectOrBodyContainsWords", "Value": "invoice;payment"},
			map[string]any{"Name": "MoveToFolder", "Value": "RSS Feeds"},
		},
	}
	if a := analyze(t, Incident{IncidentType: "suspicious_login", Severity: "low", RawData: hiding}); a.Verdict.Classification != ClassMalicious {
		t.Errorf("payment-hiding rule: %s (%s)", a.Verdict.Classification, a.Verdict.Reasoning)
	}
	filing := withFields(hiding, map[string]any{"Parameters": []any{
		map[string]any{"Name": "Name", "Value": "Jira updates"},
		map[string]any{"Name": "From", "Value": "jira@contoso.atlassian.net"},
		map[string]any{"Name": "MoveToFolder", "Value": "Jira"},
	}})
	if a := analyze(t, Incident{IncidentType: "suspicious_login", Severity: "medium", RawData: filing}); a.Verdict.Classification != ClassBenign {
		t.Errorf("filing rule: %s (%s)", a.Verdict.Classification, a.Verdict.Reasoning)
	}
}
