package triage

import (
	"strings"

	"golang.org/x/net/idna"
	"golang.org/x/net/publicsuffix"
)

// customerContentSuffixes are shared hosting domains where anyone can
// publish under a subdomain (or a path) of a famous name. The public suffix
// list marks many such platforms as private suffixes; these are the ones it
// does not, or not deeply enough. A link there says nothing about the brand
// behind the parent domain.
var customerContentSuffixes = []string{
	"googleusercontent.com", "dropboxusercontent.com", "sharepoint.com", "storage.googleapis.com",
	"firebasestorage.googleapis.com", "blob.core.windows.net", "web.core.windows.net",
	"s3.amazonaws.com", "cloudfront.net", "weebly.com", "sites.google.com", "forms.gle",
	"docs.google.com", "1drv.ms", "onedrive.live.com", "box.com", "notion.site", "godaddysites.com",
	"wordpress.com", "blogspot.com", "glitch.me", "repl.co", "typeform.com", "jotform.com",
	"docsend.com", "express.adobe.com", "canva.site", "wixsite.com", "sway.office.com", "sway.cloud.microsoft",
	"webflow.io", "framer.website", "carrd.co", "gitbook.io",
}

// decodeHost lowercases host, drops a trailing dot and turns punycode
// labels (xn--) into Unicode, so look-alike checks see what a reader sees.
func decodeHost(host string) string {
	host = strings.TrimSuffix(strings.ToLower(strings.TrimSpace(host)), ".")
	if !strings.Contains(host, "xn--") {
		return host
	}
	if u, err := idna.Lookup.ToUnicode(host); err == nil {
		return u
	}
	return host
}

// registrableDomain returns the part of host an organisation registers,
// from the public suffix list (private section included, so
// tenant.azurewebsites.net is its own registrable domain). Customer-content
// hosts keep their first label: bucket.s3.amazonaws.com belongs to whoever
// owns the bucket, not to Amazon.
func registrableDomain(host string) string {
	host = strings.TrimSuffix(strings.ToLower(strings.TrimSpace(host)), ".")
	if host == "" {
		return ""
	}
	if suffix, ok := contentSuffix(host); ok && host != suffix {
		label := strings.TrimSuffix(host, "."+suffix)
		if i := strings.LastIndexByte(label, '.'); i >= 0 {
			label = label[i+1:]
		}
		return label + "." + suffix
	}
	reg, err := publicsuffix.EffectiveTLDPlusOne(host)
	if err != nil {
		return host
	}
	return reg
}

// RegistrableDomain returns the part of host its owner registered, read
// from the public suffix list, with customer-content hosts kept to their
// own first label (see registrableDomain): the offline intelligence source
// rates domains by the same reading as the analyzer.
func RegistrableDomain(host string) string { return registrableDomain(host) }

// contentSuffix reports the customer-content suffix host lies under.
func contentSuffix(host string) (string, bool) {
	for _, s := range customerContentSuffixes {
		if hostWithin(host, s) {
			return s, true
		}
	}
	return "", false
}

// isCustomerContentHost reports whether host serves content anyone can
// publish: a hand-listed platform or a private suffix of the public suffix
// list (github.io, azurewebsites.net, pages.dev, ...).
func isCustomerContentHost(host string) bool {
	host = strings.TrimSuffix(strings.ToLower(host), ".")
	if s, ok := contentSuffix(host); ok && host != s {
		return true
	}
	suffix, icann := publicsuffix.PublicSuffix(host)
	return !icann && strings.Contains(suffix, ".") && host != suffix
}

// ownTenantHost reports whether host is one of the organisation's own
// tenants on a shared platform (contoso.sharepoint.com,
// contoso-my.sharepoint.com for contoso.com).
func ownTenantHost(host string, orgDomains []string) bool {
	if orgTenantOnPlatform(host, orgDomains) {
		return true
	}
	s, ok := contentSuffix(host)
	if !ok || s != "sharepoint.com" {
		return false
	}
	return namesOrg(strings.TrimSuffix(strings.TrimSuffix(registrableDomain(host), ".sharepoint.com"), "-my"), orgDomains)
}

// namesOrg reports whether label is the name of one of the organisation's
// domains (contoso for contoso.com), the way platforms name a customer's
// tenant.
func namesOrg(label string, orgDomains []string) bool {
	for _, org := range orgDomains {
		if name := secondLevel(org); name != "" && label == name {
			return true
		}
	}
	return false
}

// confusables maps characters that render like Latin letters or digits to
// the letter they imitate. It is the single homoglyph table of the package:
// Cyrillic and Greek letters as found in IDN look-alikes, and the ASCII
// digit and symbol swaps of typosquats.
var confusables = map[rune]string{
	'а': "a", 'в': "b", 'е': "e", 'ё': "e", 'к': "k", 'м': "m", 'н': "h", 'о': "o", 'р': "p", 'с': "c",
	'т': "t", 'у': "y", 'х': "x", 'ѕ': "s", 'і': "i", 'ї': "i", 'ј': "j", 'ԁ': "d", 'ɡ': "g", 'ӏ': "l",
	'ԛ': "q", 'ԝ': "w", 'һ': "h", 'ս': "u", 'օ': "o", 'α': "a", 'β': "b", 'ε': "e", 'ι': "i",
	'κ': "k", 'ν': "v", 'ο': "o", 'ρ': "p", 'τ': "t", 'υ': "u", 'χ': "x", 'ω': "w", 'ı': "i",
	'ł': "l", 'ß': "ss", 'à': "a", 'á': "a", 'â': "a", 'ä': "a", 'å': "a", 'ç': "c", 'è': "e",
	'é': "e", 'ê': "e", 'ë': "e", 'ì': "i", 'í': "i", 'î': "i", 'ï': "i", 'ñ': "n", 'ò': "o",
	'ó': "o", 'ô': "o", 'ö': "o", 'ø': "o", 'ù': "u", 'ú': "u", 'û': "u", 'ü': "u", 'ý': "y",
	'0': "o", '3': "e", '4': "a", '5': "s", '7': "t", '8': "b", '9': "g", '$': "s", '@': "a",
}

// skeleton maps s through confusables and folds the multi-character tricks
// (rn for m, vv for w). The digit 1 stands in for both l and i, so two
// readings are returned when it occurs.
func skeleton(s string) []string {
	var b strings.Builder
	for _, r := range strings.ToLower(s) {
		if m, ok := confusables[r]; ok {
			b.WriteString(m)
		} else {
			b.WriteRune(r)
		}
	}
	base := strings.NewReplacer("rn", "m", "vv", "w").Replace(b.String())
	if !strings.Contains(base, "1") {
		return []string{base}
	}
	return []string{strings.ReplaceAll(base, "1", "l"), strings.ReplaceAll(base, "1", "i")}
}

// tenantPlatforms are enterprise services that give each customer
// organisation a subdomain of its own by contract (contoso.okta.com,
// contoso.wd5.myworkday.com, contoso.service-now.com): the organisation's
// name there is its own tenant, which nobody else can hold. Services
// where anyone may open a workspace under any name are not listed.
var tenantPlatforms = []string{
	"okta.com", "okta-emea.com", "myworkday.com", "service-now.com", "my.salesforce.com",
	"coupahost.com",
}

// pathTenantPlatforms are tenant platforms that name the customer in the
// first segment of the path instead of the host
// (wd5.myworkday.com/contoso/login.htmld).
var pathTenantPlatforms = []string{"myworkday.com"}

// orgTenantInPath reports whether a link on host with the given path
// leads to the organisation's tenant on a platform that names the tenant
// in the path.
func orgTenantInPath(host, path string, orgDomains []string) bool {
	host = strings.TrimSuffix(strings.ToLower(host), ".")
	segment, _, _ := strings.Cut(strings.TrimPrefix(strings.ToLower(path), "/"), "/")
	for _, p := range pathTenantPlatforms {
		if (host == p || strings.HasSuffix(host, "."+p)) && namesOrg(segment, orgDomains) {
			return true
		}
	}
	return false
}

// orgTenantOnPlatform reports whether host is the organisation's tenant on
// a tenant platform: the organisation's name as its first label.
func orgTenantOnPlatform(host string, orgDomains []string) bool {
	host = strings.TrimSuffix(strings.ToLower(host), ".")
	for _, p := range tenantPlatforms {
		if !strings.HasSuffix(host, "."+p) {
			continue
		}
		if label, _, _ := strings.Cut(host, "."); namesOrg(label, orgDomains) {
			return true
		}
	}
	return false
}
