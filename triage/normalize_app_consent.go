package triage

import (
	"net/url"
	"regexp"
	"slices"
	"strings"
)

// Consent phishing skips the password: the user is asked to grant an
// application access to their mailbox and files, and the grant outlives
// any password reset. Entra ID's audit log ("Consent to application"),
// Microsoft 365's unified audit log, Google Workspace's token audit and
// the SIEMs that carry them report the application, its publisher, the
// permissions granted and where the application sends its tokens.

// AppConsentFields describe a grant of access to an application.
type AppConsentFields struct {
	// Present is set when the alert reports a user or an administrator
	// consenting to an application.
	Present bool `expr:"present" json:"present,omitempty"`
	// App is the application's display name.
	App string `expr:"app" json:"app,omitempty"`
	// PublisherVerified is "yes" or "no" when the payload says whether
	// the publisher is verified, "" when it does not.
	PublisherVerified string `expr:"publisher_verified" json:"publisher_verified,omitempty"`
	// MailAccess is set when the permissions read or change mail or
	// files; MailWrite when they send mail, change it, change mailbox
	// settings or write files.
	MailAccess bool `expr:"mail_access" json:"mail_access,omitempty"`
	MailWrite  bool `expr:"mail_write" json:"mail_write,omitempty"`
	// ContentHostReply is the customer-content host (azurewebsites.net,
	// herokuapp.com, pages.dev, ...) the application sends its tokens to,
	// or "".
	ContentHostReply string `expr:"content_host_reply" json:"content_host_reply,omitempty"`
	// BrandName is the brand or product the application's name invokes
	// (DocuSign, Outlook, Adobe), or "".
	BrandName string `expr:"brand_name" json:"brand_name,omitempty"`
	// FlaggedRisky is set when the identity platform itself flagged the
	// application as risky.
	FlaggedRisky bool `expr:"flagged_risky" json:"flagged_risky,omitempty"`
}

var (
	// mailScopes are delegated permissions to a mailbox or files (Graph,
	// Exchange Web Services, Gmail).
	mailScopes      = regexp.MustCompile(`\b(mail\.(read|readwrite|send|readbasic)(\.all|\.shared)?|mailboxsettings\.readwrite|files\.(read|readwrite)(\.all)?|sites\.(read|readwrite)\.all|full_access_as_user|ews\.accessasuser\.all|imap\.accessasuser\.all|mail\.google\.com|gmail\.(modify|readonly|send|compose)|drive(\.readonly)?\b)`)
	mailWriteScopes = regexp.MustCompile(`\b(mail\.(readwrite|send)(\.all|\.shared)?|mailboxsettings\.readwrite|files\.readwrite(\.all)?|sites\.readwrite\.all|full_access_as_user|ews\.accessasuser\.all|mail\.google\.com|gmail\.(modify|send|compose))\b`)
	urlHost         = regexp.MustCompile(`https?://([a-z0-9][a-z0-9.-]*[a-z0-9])`)
	// lureAppWords are what an application name says to pass for a
	// trusted tool.
	lureAppWords = []string{"security update", "secure view", "verification", "mailbox upgrade", "account protection", "document viewer", "e-sign", "esign"}
)

// consentMarkers name a consent grant in the payload's text with
// everything but letters and digits dropped; plain substrings, since every
// alert is checked.
var consentMarkers = []string{"consenttoapplication", "oauthconsent", "consentgranted", "appconsent", "oauth2permissiongrant",
	"delegatedpermissiongrant", "illicitconsent", "consentaction"}

// consentMarked reports a consent marker in compact text that is not
// negated right before it: enrichment noting "no app consents" in the
// last day is no consent.
func consentMarked(compact string) bool {
	return firstUnnegated(compact, consentMarkers, func(before string) bool {
		return strings.HasSuffix(before, "no") || strings.HasSuffix(before, "not") || strings.HasSuffix(before, "without")
	}) != ""
}

// readAppConsent reads a consent grant the alert reports.
func readAppConsent(d *doc) AppConsentFields {
	// Google Workspace files a grant as the token application's
	// "authorize" event.
	googleGrant := slices.ContainsFunc(d.scalarStrs("applicationname"), func(s string) bool { return strings.EqualFold(s, "token") }) &&
		containsAnyTerm(normKey(lowerJoin(d.scalarStrs("name", "eventname"))), "authorize")
	if !googleGrant && !consentMarked(d.compactText()) {
		return AppConsentFields{}
	}
	f := AppConsentFields{Present: true, App: appDisplayName(d)}
	f.PublisherVerified = publisherVerified(d)
	f.MailAccess = mailScopes.MatchString(d.text)
	f.MailWrite = mailWriteScopes.MatchString(d.text)
	for _, m := range urlHost.FindAllStringSubmatch(d.text, 50) {
		// Google names its scopes by URL (www.googleapis.com/auth/...);
		// a scope is no application's reply address.
		if !hostWithin(m[1], "googleapis.com") && isCustomerContentHost(m[1]) {
			f.ContentHostReply = m[1]
			break
		}
	}
	f.BrandName = appBrand(f.App)
	f.FlaggedRisky = containsAnyTerm(d.text, "risky application detected", "risky app", "app governance")
	return f
}

// publisherVerified reads whether the application's publisher is
// verified: a flag, an explicit "unverified" in the text, or Entra's
// verifiedPublisher object (null when there is none).
func publisherVerified(d *doc) string {
	if v, ok := d.boolean("publisherverified", "isverifiedpublisher", "verifiedpublisherflag", "isappverified"); ok {
		return map[bool]string{true: "yes", false: "no"}[v]
	}
	// Graph's verifiedPublisher object is always there; it is empty
	// (every member null) when the publisher is not verified.
	for _, m := range d.maps("verifiedpublisher") {
		if newDoc(m).scalarStr("verifiedpublisherid", "displayname") == "" {
			return "no"
		}
	}
	switch {
	case containsAnyTerm(d.text, "unverified"):
		return "no"
	case d.has("verifiedpublisher"):
		return "yes"
	case len(d.values("verifiedpublisher")) > 0:
		return "no"
	}
	return ""
}

// appDisplayName is the application's name, where audit logs and alerts
// put it.
func appDisplayName(d *doc) string {
	return d.scalarStr("appdisplayname", "appname", "clientappname", "targetresourcesdisplayname", "oauthappname", "applicationdisplayname")
}

// appBrand names the brand or lure an application's name invokes, before
// any " for ...", read the way a sender's display name is (displayBrand).
func appBrand(name string) string {
	low := strings.ToLower(name)
	if low == "" {
		return ""
	}
	// "PDF Merge for Outlook" names the product it plugs into, which
	// add-ins do; the brand counts when it leads the name.
	if i := strings.Index(low, " for "); i >= 0 {
		low = low[:i]
	}
	if b, ok := displayBrand(low); ok {
		return b.name
	}
	return firstSubstring(low, lureAppWords)
}

// consentPhishLink returns the host a consent link in urls sends its grant
// to: a link to the identity provider's own authorize page (Microsoft's
// login.microsoftonline.com, Google's accounts.google.com) asking for mail
// or file permissions, for an application whose redirect address is on no
// well-known brand's or the organisation's domain (see own). The page is
// genuine, which is what makes consent phishing pass link checks.
func consentPhishLink(urls []string, own func(host string) bool) string {
	for _, raw := range urls {
		u, err := url.Parse(strings.TrimSpace(raw))
		if err != nil || !consentPage(u) {
			continue
		}
		q := u.Query()
		if !mailScopes.MatchString(strings.ToLower(q.Get("scope"))) {
			continue
		}
		redirect, err := url.Parse(q.Get("redirect_uri"))
		if err != nil || redirect.Hostname() == "" {
			continue
		}
		host := strings.ToLower(redirect.Hostname())
		if _, branded := ownerBrand(host); !branded && !own(host) {
			return host
		}
	}
	return ""
}

// consentPage reports an identity provider's OAuth authorize page.
func consentPage(u *url.URL) bool {
	host, path := strings.ToLower(u.Hostname()), strings.ToLower(u.Path)
	switch host {
	case "login.microsoftonline.com", "login.microsoft.com", "login.live.com":
		return strings.Contains(path, "oauth2") && strings.Contains(path, "authorize")
	case "accounts.google.com":
		return strings.Contains(path, "oauth2") || strings.Contains(path, "/o/oauth")
	}
	return false
}
