package triage

import (
	"testing"

	"golang.org/x/net/idna"
)

func TestRegistrableDomain(t *testing.T) {
	for host, want := range map[string]string{
		"login.micros0ft-support.com":           "micros0ft-support.com",
		"a.b.example.co.uk":                     "example.co.uk",
		"mail.example.com.br":                   "example.com.br",
		"evil.web.core.windows.net":             "evil.web.core.windows.net",
		"bucket.s3.amazonaws.com":               "bucket.s3.amazonaws.com",
		"doc-0k.googleusercontent.com":          "doc-0k.googleusercontent.com",
		"dl.dropboxusercontent.com":             "dl.dropboxusercontent.com",
		"contoso-my.sharepoint.com":             "contoso-my.sharepoint.com",
		"paypal.github.io":                      "paypal.github.io",
		"WWW.Example.ORG.":                      "example.org",
		"login.microsoftonline.com":             "microsoftonline.com",
		"static.app.customer.azurewebsites.net": "customer.azurewebsites.net",
	} {
		if got := registrableDomain(host); got != want {
			t.Errorf("registrableDomain(%q) = %q, want %q", host, got, want)
		}
	}
}

func TestCustomerContentHostsAreNotBrandOwned(t *testing.T) {
	for _, host := range []string{
		"evil.web.core.windows.net", "attacker.blob.core.windows.net", "bucket.s3.amazonaws.com",
		"doc-0k.googleusercontent.com", "dl.dropboxusercontent.com", "fabrikam.sharepoint.com",
		"paypal.github.io", "microsoft-login.azurewebsites.net",
	} {
		if b, ok := ownerBrand(host); ok {
			t.Errorf("%s counted as owned by %s", host, b.name)
		}
	}
	for _, host := range []string{"login.microsoftonline.com", "www.paypal.com", "accounts.google.com"} {
		if _, ok := ownerBrand(host); !ok {
			t.Errorf("%s not recognised as brand-owned", host)
		}
	}
	if !ownTenantHost("contoso-my.sharepoint.com", []string{"contoso.com"}) || ownTenantHost("contoso0-my.sharepoint.com", []string{"contoso.com"}) {
		t.Error("own SharePoint tenant not told apart from a look-alike tenant")
	}
}

func TestIDNHomoglyphLookalikes(t *testing.T) {
	for unicodeHost, target := range map[string]string{
		"pаypal.com":     "paypal",    // Cyrillic a
		"microsоft.com":  "microsoft", // Cyrillic o
		"аpple-id.com":   "apple",
		"dоcusign.net":   "docusign",
		"login-οkta.com": "okta", // Greek omicron
	} {
		puny, err := idna.Lookup.ToASCII(unicodeHost)
		if err != nil {
			t.Fatalf("ToASCII(%q): %v", unicodeHost, err)
		}
		l, ok := brandLookalike(puny)
		if !ok || l.target != target {
			t.Errorf("brandLookalike(%q = %q) = %+v, %v; want %s", puny, unicodeHost, l, ok, target)
		}
	}
	if _, ok := brandLookalike("paypal.com"); ok {
		t.Error("the real domain flagged")
	}
}
