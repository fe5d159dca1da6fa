package triage

import "strings"

// brand is a frequently impersonated organisation. aliases are the names that
// appear in look-alike domains; display lists the phrases that betray the
// brand in a sender display name (nil means the aliases); domains are the
// registrable domains the brand really sends mail and hosts login pages from.
type brand struct {
	name    string
	aliases []string
	display []string
	domains []string
}

// brands is ordered so that the first match is stable and reasoning text is
// reproducible. Display phrases avoid bare common words: "Chase" is also a
// first name and "Outlook" the title of many newsletters.
var brands = []brand{
	{"microsoft", []string{"microsoft", "office365", "outlook", "onedrive", "sharepoint", "microsoftonline", "ms365", "m365", "o365"},
		[]string{"microsoft", "office365", "office 365", "onedrive", "sharepoint", "outlook team", "outlook web"},
		[]string{"microsoft.com", "microsoftonline.com", "microsoft365.com", "office.com", "office.net", "office365.com", "outlook.com", "live.com", "hotmail.com", "msn.com", "sharepoint.com", "sharepointonline.com", "onmicrosoft.com", "onedrive.com", "azure.com", "windows.net", "azureedge.net"}},
	{"paypal", []string{"paypal"}, nil, []string{"paypal.com", "paypal.me", "paypalobjects.com"}},
	{"apple", []string{"apple", "icloud", "itunes"}, nil, []string{"apple.com", "icloud.com", "me.com", "mzstatic.com"}},
	{"google", []string{"google", "gmail"}, nil, []string{"google.com", "gmail.com", "googlemail.com", "googleapis.com", "googleusercontent.com", "gstatic.com", "withgoogle.com", "googleblog.com", "youtube.com", "goo.gl"}},
	{"amazon", []string{"amazon", "aws"}, nil, []string{"amazon.com", "amazonaws.com", "amazonses.com", "media-amazon.com", "amazontrust.com"}},
	{"docusign", []string{"docusign"}, nil, []string{"docusign.com", "docusign.net"}},
	{"dropbox", []string{"dropbox", "hellosign"}, nil, []string{"dropbox.com", "dropboxmail.com", "dropboxusercontent.com", "hellosign.com"}},
	{"intuit", []string{"intuit", "quickbooks", "turbotax"}, nil, []string{"intuit.com", "quickbooks.com", "turbotax.com", "intuit.ca", "intuit.co.uk"}},
	{"adobe", []string{"adobe", "adobesign", "echosign"}, []string{"adobe"}, []string{"adobe.com", "adobesign.com", "echosign.com", "adobe.io", "adobelogin.com"}},
	{"zoom", []string{"zoom"}, []string{"zoom video", "zoom meeting", "zoom team", "zoom.us"}, []string{"zoom.us", "zoom.com", "zoomgov.com"}},
	{"wetransfer", []string{"wetransfer"}, nil, []string{"wetransfer.com", "we.tl"}},
	{"coinbase", []string{"coinbase"}, nil, []string{"coinbase.com"}},
	{"facebook", []string{"facebook", "instagram", "whatsapp"}, []string{"facebook", "instagram", "whatsapp", "meta for business"}, []string{"facebook.com", "facebookmail.com", "fb.com", "meta.com", "instagram.com", "whatsapp.com"}},
	{"norton", []string{"norton", "nortonlifelock"}, []string{"norton 360", "norton antivirus", "nortonlifelock", "norton lifelock"}, []string{"norton.com", "nortonlifelock.com", "gen.digital"}},
	{"mcafee", []string{"mcafee"}, nil, []string{"mcafee.com"}},
	{"geek squad", []string{"geeksquad", "bestbuy"}, []string{"geek squad", "geeksquad", "best buy"}, []string{"bestbuy.com", "geeksquad.com"}},
	{"ringcentral", []string{"ringcentral"}, nil, []string{"ringcentral.com", "ringcentral.biz"}},
	{"usps", []string{"usps"}, []string{"usps", "postal service"}, []string{"usps.com", "usps.gov"}},
	{"ups", []string{"ups"}, []string{"united parcel service", "ups my choice", "ups delivery"}, []string{"ups.com"}},
	{"ebay", []string{"ebay"}, nil, []string{"ebay.com", "ebay.co.uk", "ebay.de"}},
	{"american express", []string{"americanexpress", "amex"}, []string{"american express", "amex"}, []string{"americanexpress.com", "aexp.com"}},
	{"okta", []string{"okta"}, nil, []string{"okta.com", "oktacdn.com", "okta-emea.com"}},
	{"linkedin", []string{"linkedin"}, nil, []string{"linkedin.com", "licdn.com"}},
	{"dhl", []string{"dhl"}, nil, []string{"dhl.com", "dhl.de"}},
	{"fedex", []string{"fedex"}, nil, []string{"fedex.com"}},
	{"netflix", []string{"netflix"}, nil, []string{"netflix.com"}},
	{"chase", []string{"chase", "jpmorgan"}, []string{"chase bank", "chase online", "jpmorgan", "jp morgan"}, []string{"chase.com", "jpmorgan.com", "jpmchase.com"}},
	{"wells fargo", []string{"wellsfargo"}, []string{"wells fargo", "wellsfargo"}, []string{"wellsfargo.com"}},
	{"bank of america", []string{"bankofamerica"}, []string{"bank of america", "bankofamerica"}, []string{"bankofamerica.com", "bofa.com"}},
	{"citibank", []string{"citibank", "citi"}, nil, []string{"citi.com", "citibank.com"}},
	{"hsbc", []string{"hsbc"}, nil, []string{"hsbc.com", "hsbc.co.uk"}},
	{"barclays", []string{"barclays"}, nil, []string{"barclays.com", "barclays.co.uk"}},
	{"santander", []string{"santander"}, nil, []string{"santander.com", "santander.co.uk"}},
}

// wordAliases are brand aliases that are also everyday words, so finding them
// inside a longer label ("economicoutlook") proves nothing.
var wordAliases = setOf("outlook", "apple", "chase")

// freeMailDomains never identify the recipient's organisation.
var freeMailDomains = setOf(
	"gmail.com", "googlemail.com", "outlook.com", "hotmail.com", "live.com", "yahoo.com",
	"icloud.com", "me.com", "aol.com", "proton.me", "protonmail.com", "gmx.com", "gmx.de",
	"mail.com", "yandex.com", "zoho.com",
)

// secondLevel returns the registrable domain without its public suffix.
func secondLevel(host string) string {
	r := registrableDomain(host)
	if i := strings.IndexByte(r, '.'); i >= 0 {
		return r[:i]
	}
	return r
}

func hostWithin(host, domain string) bool {
	return host == domain || strings.HasSuffix(host, "."+domain)
}

// brandOwnsHost reports whether host belongs to b. A host whose registrable
// name is exactly a brand alias under another TLD (amazon.de, paypal.co.uk)
// counts as the brand's, since listing every country domain is impractical and
// such registrations are usually defended by the brand itself.
func brandOwnsHost(b brand, host string) bool {
	// Anyone can publish on a customer-content host, whatever its parent
	// domain or first label says.
	if isCustomerContentHost(host) {
		return false
	}
	for _, d := range b.domains {
		if hostWithin(host, d) {
			return true
		}
	}
	sld := secondLevel(host)
	for _, a := range b.aliases {
		if sld == a {
			return true
		}
	}
	return false
}

// ownerBrand returns the brand that legitimately owns host, if any.
func ownerBrand(host string) (brand, bool) {
	for _, b := range brands {
		if brandOwnsHost(b, host) {
			return b, true
		}
	}
	return brand{}, false
}

// lookalike describes a domain that imitates a brand or organisation.
type lookalike struct {
	target string // brand or organisation name being imitated
	how    string
	// tenant is true when the organisation's exact name is only the
	// leftmost label of another service's domain (contoso.vendor.com),
	// the way software-as-a-service vendors name a customer's tenant.
	tenant bool
	// disguised is true for character substitution and misspelling, which
	// only make sense as deception; merely containing a brand name can be
	// innocent (a partner's "google-workshop" event site).
	disguised bool
}

// brandLookalike reports whether host imitates a well-known brand it does not
// belong to.
func brandLookalike(host string) (lookalike, bool) {
	host = decodeHost(host)
	if host == "" {
		return lookalike{}, false
	}
	if _, ok := ownerBrand(host); ok {
		return lookalike{}, false
	}
	tokens := hostTokens(host)
	for _, b := range brands {
		for _, alias := range b.aliases {
			for _, tok := range tokens {
				if how, disguised, ok := imitates(tok, alias); ok {
					return lookalike{target: b.name, how: how, disguised: disguised}, true
				}
			}
		}
	}
	return lookalike{}, false
}

// orgLookalike reports whether host imitates one of the recipient
// organisations' domains (contoso.com vs c0ntoso.com or contoso-hr.com).
func orgLookalike(host string, orgDomains []string) (lookalike, bool) {
	host = decodeHost(host)
	if host == "" || ownTenantHost(host, orgDomains) {
		return lookalike{}, false
	}
	reg := registrableDomain(host)
	for _, org := range orgDomains {
		if reg == org {
			return lookalike{}, false
		}
	}
	tokens := hostTokens(host)
	for _, org := range orgDomains {
		name := secondLevel(org)
		for _, tok := range tokens {
			if tok == name {
				return lookalike{target: org, how: "reuses the organisation's name under a different domain", tenant: strings.HasPrefix(host, name+".") && strings.Count(host, ".") > strings.Count(reg, ".")}, true
			}
			if how, disguised, ok := imitates(tok, name); ok {
				return lookalike{target: org, how: how, disguised: disguised}, true
			}
		}
	}
	return lookalike{}, false
}

// hostTokens splits every label of host except the public suffix into the
// words an attacker might combine ("microsoft-login-secure" yields
// "microsoft", "login", "secure" and the joined "microsoftloginsecure"), so
// brand names hidden in subdomains (paypal.com.evil.xyz) are seen as well.
func hostTokens(host string) []string {
	reg := registrableDomain(host)
	suffixLabels := strings.Count(reg, ".")
	labels := strings.Split(host, ".")
	if len(labels) > suffixLabels {
		labels = labels[:len(labels)-suffixLabels]
	}
	var out []string
	for _, l := range labels {
		if l == "" || l == "www" {
			continue
		}
		out = append(out, l)
		if strings.Contains(l, "-") {
			out = append(out, strings.Split(l, "-")...)
			out = append(out, strings.ReplaceAll(l, "-", ""))
		}
	}
	return out
}

// imitates decides whether token is a disguised form of name, how, and
// whether the form is deceptive by construction (substitution, misspelling).
// Both sides are compared after undoing homoglyphs so that names containing
// digits (office365) are handled too. Short names only match exactly or via
// substitution, because edit distance on three or four letters flags
// ordinary words (dhs vs dhl).
func imitates(tok, name string) (how string, disguised, ok bool) {
	if tok == "" || name == "" {
		return "", false, false
	}
	if tok == name {
		return "uses the name inside an unrelated domain", false, true
	}
	plain := skeleton(name)[0]
	variants := skeleton(tok)
	for _, v := range variants {
		if v == plain {
			return "substitutes look-alike characters", true, true
		}
	}
	// Substring matches need a longer, non-dictionary name: "chase" hides in
	// "purchase" and "outlook" in "economicoutlook".
	if len(name) >= 6 && !wordAliases[name] {
		if strings.Contains(tok, name) {
			return "combines the name with other words", false, true
		}
		for _, v := range variants {
			if strings.Contains(v, plain) {
				return "substitutes look-alike characters", true, true
			}
		}
	}
	if len(name) >= 6 {
		maxDist := 1
		if len(name) >= 9 {
			maxDist = 2
		}
		if abs(len(tok)-len(name)) <= maxDist {
			for _, v := range variants {
				if editDistance(v, plain, maxDist) <= maxDist {
					return "is a misspelling of the name", true, true
				}
			}
		}
	}
	return "", false, false
}

// editDistance is the optimal-string-alignment distance (Levenshtein plus
// adjacent transpositions), giving up early once it exceeds limit.
func editDistance(a, b string, limit int) int {
	if abs(len(a)-len(b)) > limit {
		return limit + 1
	}
	prev2 := make([]int, len(b)+1)
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		rowMin := cur[0]
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
			rowMin = min(rowMin, cur[j])
		}
		if rowMin > limit {
			return limit + 1
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(b)]
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
