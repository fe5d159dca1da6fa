package triage

import "testing"

func TestOwnSaaSTenantSenderAndInlineBody(t *testing.T) {
	message := func(sender, link string) map[string]any {
		return map[string]any{"messagesDelivered": []any{map[string]any{
			"sender": sender, "fromAddress": []any{sender}, "recipient": []any{"a.b@contoso.com"},
			"spf": "pass", "dkimv": "pass", "dmarc": "pass",
			"threatsInfoMap": []any{map[string]any{"classification": "phish", "threatType": "url", "threat": link}},
			"messageParts":   []any{map[string]any{"disposition": "inline", "filename": "text.html", "contentType": "text/html"}},
		}}}
	}
	for _, tc := range []struct {
		name         string
		raw          map[string]any
		tenantSender bool
		tenantLinks  int
	}{
		{"own tenant", message("support@contoso.zendesk.com", "https://contoso.zendesk.com/hc/requests/1"), true, 1},
		{"someone else's tenant", message("support@c0ntoso.zendesk.com", "https://c0ntoso.zendesk.com/hc/requests/1"), false, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			raw := tc.raw
			f := readEmailFields(newDoc(raw), ExtractIndicators(raw))
			if f.OwnTenantSender != tc.tenantSender || f.OwnTenantLinks != tc.tenantLinks {
				t.Errorf("own tenant sender %v links %d, want %v %d", f.OwnTenantSender, f.OwnTenantLinks, tc.tenantSender, tc.tenantLinks)
			}
			if len(f.Attachments) != 0 {
				t.Errorf("attachments %v: the inline body part is not an attachment", f.Attachments)
			}
		})
	}
}
