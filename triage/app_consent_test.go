package triage

import "testing"

// A consent grant is read from the audit shapes that report it.
func TestAppConsentIsRead(t *testing.T) {
	for _, tc := range []struct {
		name, payload string
		want          AppConsentFields
	}{
		{"Entra audit with unverified publisher", `{"activityDisplayName":"Consent to application","targetResources":[{"displayName":"DocuSign SecureView",
			"modifiedProperties":[{"displayName":"ConsentAction.Permissions","newValue":"Scope: Mail.ReadWrite Mail.Send offline_access"},
			{"displayName":"AppAddress","newValue":"https://docusign-secureview.herokuapp.com/auth/callback"}]}],"servicePrincipalContext":{"verifiedPublisher":null}}`,
			AppConsentFields{Present: true, App: "DocuSign SecureView", PublisherVerified: "no", MailAccess: true, MailWrite: true,
				ContentHostReply: "docusign-secureview.herokuapp.com", BrandName: "docusign"}},
		{"flat webhook, verified, read only", `{"event_type":"oauth_consent_granted","data":{"details":{"app_display_name":"Zoom Meeting Scheduler for Outlook",
			"publisher_verified":true,"scopes":["Calendars.ReadWrite","Mail.Read"]}}}`,
			AppConsentFields{Present: true, App: "Zoom Meeting Scheduler for Outlook", PublisherVerified: "yes", MailAccess: true, BrandName: "zoom"}},
		{"Graph service principal, empty verified publisher", `{"activityDisplayName":"Consent to application","targetResources":[{"displayName":"DocuVault Viewer",
			"modifiedProperties":[{"displayName":"ConsentAction.Permissions","newValue":"Scope: Mail.Read offline_access"}]}],
			"servicePrincipal":{"displayName":"DocuVault Viewer","verifiedPublisher":{"displayName":null,"verifiedPublisherId":null,"addedDateTime":null}}}`,
			AppConsentFields{Present: true, App: "DocuVault Viewer", PublisherVerified: "no", MailAccess: true}},
		{"Graph service principal, verified publisher", `{"activityDisplayName":"Consent to application","targetResources":[{"displayName":"Zoom for Outlook",
			"modifiedProperties":[{"displayName":"ConsentAction.Permissions","newValue":"Scope: Calendars.ReadWrite"}]}],
			"servicePrincipal":{"displayName":"Zoom for Outlook","verifiedPublisher":{"displayName":"Zoom Video Communications, Inc.","verifiedPublisherId":"5187294","addedDateTime":"2021-03-02T00:00:00Z"}}}`,
			AppConsentFields{Present: true, App: "Zoom for Outlook", PublisherVerified: "yes"}},
		{"no consent", `{"title":"Impossible travel","scopes":"Mail.Read"}`, AppConsentFields{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := readAppConsent(newDoc(mustJSON(t, tc.payload))); got != tc.want {
				t.Fatalf("read %+v\nwant %+v", got, tc.want)
			}
		})
	}
}

// A link to the real consent page is consent phishing when it asks for
// mail or files for an application on an unknown domain.
func TestConsentPhishLink(t *testing.T) {
	own := func(h string) bool { return h == "apps.contoso.com" }
	const base = "https://login.microsoftonline.com/common/oauth2/v2.0/authorize?client_id=1e8e2093&response_type=code&prompt=consent"
	for _, tc := range []struct {
		name, url, want string
	}{
		{"mail scopes to a new domain", base + "&redirect_uri=https%3A%2F%2Fprojectvault-docs.app%2Fcb&scope=Mail.ReadWrite%20offline_access", "projectvault-docs.app"},
		{"Google, Gmail scope", "https://accounts.google.com/o/oauth2/v2/auth?client_id=x&redirect_uri=https://mail-backup.pro/cb&scope=https://mail.google.com/", "mail-backup.pro"},
		{"calendar only", base + "&redirect_uri=https%3A%2F%2Fcal-sync.app%2Fcb&scope=Calendars.ReadWrite", ""},
		{"a known vendor's app", base + "&redirect_uri=https%3A%2F%2Fzoom.us%2Fcb&scope=Mail.Read", ""},
		{"the organisation's own app", base + "&redirect_uri=https%3A%2F%2Fapps.contoso.com%2Fcb&scope=Mail.Read", ""},
		{"a look-alike page", "https://login-microsoftonline.com.auth-check.ru/oauth2/authorize?redirect_uri=https://x.app/&scope=Mail.Read", ""},
	} {
		if got := consentPhishLink([]string{tc.url}, own); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
}

// Enrichment that says there were no consents is no consent: a sign-in
// record noting "no app consents" in the last day does not read as an
// application grant.
func TestANegatedConsentIsNoConsent(t *testing.T) {
	signIn := map[string]any{"appDisplayName": "Microsoft Outlook", "userPrincipalName": "a.berg@example.com",
		"context": "compliant since 2024-01; audit logs 24h: no security info changes, no app consents, no inbox rules"}
	if readAppConsent(newDoc(signIn)).Present {
		t.Error("a negated consent read as a grant")
	}
	grant := map[string]any{"activityDisplayName": "Consent to application", "targetResources": []any{map[string]any{"displayName": "Mail Sync Pro"}}}
	if !readAppConsent(newDoc(grant)).Present {
		t.Error("a consent event was not read")
	}
}
