package intel

import (
	"strings"

	"github.com/vigil-soc/vigil/triage"
)

// simBrand is an often imitated organisation for the simulated source.
// word marks names that are also everyday words, which only count as an
// imitation next to a lure word.
type simBrand struct {
	name  string
	owned []string
	word  bool
}

var (
	microsoftDomains = []string{"microsoft.com", "microsoftonline.com", "office.com", "office365.com", "live.com", "outlook.com", "sharepoint.com", "sharepointonline.com", "onedrive.com", "azure.com", "windows.net", "microsoft365.com", "cloud.microsoft"}
	googleDomains    = []string{"google.com", "gmail.com", "googleapis.com", "gstatic.com", "googleusercontent.com", "youtube.com"}
	appleDomains     = []string{"apple.com", "icloud.com"}
)

// simBrands is ordered so that the first of equally scored matches is
// stable.
var simBrands = []simBrand{
	{name: "microsoft", owned: microsoftDomains},
	{name: "office365", owned: microsoftDomains},
	{name: "onedrive", owned: microsoftDomains},
	{name: "sharepoint", owned: microsoftDomains},
	{name: "outlook", owned: microsoftDomains, word: true},
	{name: "paypal", owned: []string{"paypal.com", "paypal.me"}},
	{name: "apple", owned: appleDomains, word: true},
	{name: "icloud", owned: appleDomains},
	{name: "google", owned: googleDomains},
	{name: "gmail", owned: googleDomains},
	{name: "amazon", owned: []string{"amazon.com", "amazonaws.com"}},
	{name: "docusign", owned: []string{"docusign.com", "docusign.net"}},
	{name: "dropbox", owned: []string{"dropbox.com"}},
	{name: "okta", owned: []string{"okta.com"}},
	{name: "linkedin", owned: []string{"linkedin.com"}},
	{name: "netflix", owned: []string{"netflix.com"}},
	{name: "dhl", owned: []string{"dhl.com", "dhl.de"}},
	{name: "fedex", owned: []string{"fedex.com"}},
	{name: "chase", owned: []string{"chase.com"}, word: true},
	{name: "wellsfargo", owned: []string{"wellsfargo.com"}},
	{name: "bankofamerica", owned: []string{"bankofamerica.com"}},
	{name: "github", owned: []string{"github.com", "github.io", "githubusercontent.com"}},
}

// wellKnownDomains are rated clean with their subdomains: besides the
// brands' own domains, services nearly every organisation talks to.
var wellKnownDomains = func() map[string]bool {
	m := setOf("cloudflare.com", "wikipedia.org", "slack.com", "zoom.us", "salesforce.com",
		"atlassian.com", "atlassian.net", "mozilla.org", "adobe.com", "bing.com", "yahoo.com")
	for _, b := range simBrands {
		for _, d := range b.owned {
			m[d] = true
		}
	}
	return m
}()

var urlShorteners = setOf("bit.ly", "tinyurl.com", "t.co", "goo.gl", "ow.ly", "is.gd", "buff.ly",
	"rebrand.ly", "cutt.ly", "shorturl.at", "rb.gy", "t.ly", "tiny.cc", "s.id")

// abuseTLDs are top-level domains with a high share of malicious
// registrations in public abuse statistics.
var abuseTLDs = setOf("zip", "mov", "top", "click", "country", "gq", "tk", "ml", "cf", "ga", "cam", "rest", "icu", "buzz")

// reservedTLDs and reservedDomains are set aside for documentation and
// testing (RFC 2606, RFC 6761); sample data uses them for both sides.
var (
	reservedTLDs    = setOf("example", "test", "invalid", "localhost")
	reservedDomains = setOf("example.com", "example.net", "example.org")
)

// lureWords are what phishing domains put next to a brand to look official.
var lureWords = setOf("login", "signin", "logon", "secure", "security", "verify", "verification",
	"support", "account", "accounts", "update", "billing", "helpdesk", "auth", "service", "services",
	"confirm", "unlock", "recovery", "alert", "notice", "online")

// splitHost returns the labels in front of the registrable domain's
// public suffix, and the registrable domain, both as the analyzer reads
// them (triage.RegistrableDomain): "login.micros0ft-support.co.uk" gives
// [login micros0ft-support] and micros0ft-support.co.uk.
func splitHost(host string) (labels []string, registrable string) {
	registrable = triage.RegistrableDomain(host)
	_, suffix, ok := strings.Cut(registrable, ".")
	if !ok {
		return nil, host
	}
	return strings.Split(strings.TrimSuffix(host, "."+suffix), "."), registrable
}

func rateDomain(host string) rating {
	labels, reg := splitHost(host)
	tld := host[strings.LastIndexByte(host, '.')+1:]
	switch {
	case reservedTLDs[tld] || reservedDomains[reg]:
		return rating{verdict: triage.ReputationUnknown, tags: []string{"reserved-domain"}}
	case urlShorteners[reg]:
		return rating{triage.ReputationSuspicious, 50, []string{"url-shortener"}}
	case wellKnownDomains[reg]:
		// A customer-content host (tenant.sharepoint.com, a bucket) is
		// its own registrable domain, so a famous parent does not vouch
		// for it.
		return rating{verdict: triage.ReputationClean, tags: []string{"well-known"}}
	}
	if r := rateLookalike(labels, reg); r.verdict != "" {
		return r
	}
	if abuseTLDs[tld] {
		return rating{triage.ReputationSuspicious, 40, []string{"high-abuse-tld"}}
	}
	return rating{}
}

// rateLookalike looks for a brand imitated anywhere in the host's labels,
// split further at hyphens: "login.micros0ft-support.com" yields login,
// micros0ft and support. The highest-scoring finding wins.
func rateLookalike(labels []string, reg string) rating {
	var tokens []string
	for _, l := range labels {
		tokens = append(tokens, strings.Split(l, "-")...)
	}
	lure := false
	for _, t := range tokens {
		lure = lure || lureWords[t]
	}
	sld, _, _ := strings.Cut(reg, ".")
	var best rating
	consider := func(score int, brand string, tags ...string) {
		if score > best.score {
			best = rating{score: score, tags: append(tags, "brand:"+brand)}
			if score >= 70 {
				best.verdict = triage.ReputationMalicious
			} else {
				best.verdict = triage.ReputationSuspicious
			}
		}
	}
	for _, b := range simBrands {
		if sld == b.name {
			// The brand's own name under another TLD (amazon.de) is usually
			// registered by the brand itself.
			continue
		}
		for _, t := range tokens {
			for _, c := range deconfused(t) {
				substituted := c != t
				switch {
				case c == b.name && substituted:
					consider(90, b.name, "lookalike", "character-substitution")
				case c == b.name && lure:
					consider(85, b.name, "lookalike", "brand-with-lure-word")
				case c == b.name && !b.word:
					consider(55, b.name, "brand-in-unrelated-domain")
				case brandPlusLure(c, b.name):
					if substituted {
						consider(90, b.name, "lookalike", "character-substitution")
					} else {
						consider(85, b.name, "lookalike", "brand-with-lure-word")
					}
				}
			}
		}
	}
	return best
}

// brandPlusLure reports a brand glued to a lure word: paypalsecure,
// securepaypal.
func brandPlusLure(token, brand string) bool {
	if rest, ok := strings.CutPrefix(token, brand); ok && lureWords[rest] {
		return true
	}
	rest, ok := strings.CutSuffix(token, brand)
	return ok && lureWords[rest]
}

// deconfused returns token and, when it has look-alike characters, its
// readings with them replaced: digits for letters and letter pairs that
// render like one letter. "1" reads as both l and i.
func deconfused(token string) []string {
	base := strings.NewReplacer("0", "o", "3", "e", "4", "a", "5", "s", "7", "t", "8", "b", "rn", "m", "vv", "w").Replace(token)
	out := []string{token}
	for _, one := range []string{"l", "i"} {
		c := strings.ReplaceAll(base, "1", one)
		if c != out[len(out)-1] && c != token {
			out = append(out, c)
		}
	}
	return out
}
