package triage

import (
	"net/netip"
	"net/url"
	"regexp"
	"sort"
	"strings"
)

// Limits that keep extraction bounded on hostile or accidentally huge
// payloads. Raw data comes straight from third-party webhooks, so nothing in
// it can be trusted to be small.
const (
	maxIndicatorsPerList = 500
	maxWalkDepth         = 32
	maxWalkNodes         = 1 << 17
	maxScanBytes         = 4 << 20 // total string bytes inspected per payload
	maxStringScan        = 1 << 20 // bytes inspected per string value
	maxURLLength         = 8192
)

var (
	urlRe   = regexp.MustCompile(`(?i)\bhttps?://[^\s<>"'` + "`" + `{}|\\^]+`)
	emailRe = regexp.MustCompile(`[a-zA-Z0-9._%+\-]+@(?:[a-zA-Z0-9](?:[a-zA-Z0-9\-]{0,61}[a-zA-Z0-9])?\.)+[a-zA-Z]{2,24}\b`)
)

// ExtractIndicators walks raw recursively and returns the URLs, domains, IP
// addresses, file hashes and e-mail addresses found in its string values.
// Map keys are visited in sorted order and each list is capped, so the result
// is deterministic and bounded for any input, including nil.
func ExtractIndicators(raw map[string]any) Indicators {
	e := newExtractor()
	e.walk("", raw, 0)
	return Indicators{
		URLs:    e.urls.sorted(),
		Domains: e.domains.sorted(),
		IPs:     e.ips.sorted(),
		Hashes:  e.hashes.sorted(),
		Emails:  e.emails.sorted(),
	}
}

// boundedSet is a string set that silently ignores additions once full.
type boundedSet struct {
	m     map[string]struct{}
	limit int
}

func newBoundedSet(limit int) boundedSet {
	return boundedSet{m: make(map[string]struct{}), limit: limit}
}

func (s *boundedSet) add(v string) {
	if v == "" || len(s.m) >= s.limit {
		return
	}
	s.m[v] = struct{}{}
}

func (s *boundedSet) full() bool { return len(s.m) >= s.limit }

// sorted never returns nil so that JSON encodes empty lists as [].
func (s *boundedSet) sorted() []string {
	out := make([]string, 0, len(s.m))
	for v := range s.m {
		out = append(out, v)
	}
	sort.Strings(out)
	return out
}

type extractor struct {
	urls, domains, ips, hashes, emails boundedSet
	nodes                              int
	budget                             int
}

func newExtractor() *extractor {
	return &extractor{
		urls:    newBoundedSet(maxIndicatorsPerList),
		domains: newBoundedSet(maxIndicatorsPerList),
		ips:     newBoundedSet(maxIndicatorsPerList),
		hashes:  newBoundedSet(maxIndicatorsPerList),
		emails:  newBoundedSet(maxIndicatorsPerList),
		budget:  maxScanBytes,
	}
}

func (e *extractor) exhausted() bool {
	if e.nodes > maxWalkNodes || e.budget <= 0 {
		return true
	}
	return e.urls.full() && e.domains.full() && e.ips.full() && e.hashes.full() && e.emails.full()
}

// walk visits v; key is the nearest enclosing map key, which array elements
// inherit so that {"sender_ips": ["1.2.3.4"]} still benefits from key hints.
func (e *extractor) walk(key string, v any, depth int) {
	if depth > maxWalkDepth || e.exhausted() {
		return
	}
	e.nodes++
	switch t := v.(type) {
	case map[string]any:
		for _, k := range sortedKeys(t) {
			e.walk(k, t[k], depth+1)
		}
	case map[string]string:
		for _, k := range sortedKeys(t) {
			e.walk(k, t[k], depth+1)
		}
	case []any:
		for _, x := range t {
			e.walk(key, x, depth+1)
		}
	case []string:
		for _, x := range t {
			e.walk(key, x, depth+1)
		}
	case []map[string]any:
		for _, x := range t {
			e.walk(key, x, depth+1)
		}
	case string:
		e.scan(key, t)
	}
}

func (e *extractor) scan(key, s string) {
	if len(s) > maxStringScan {
		s = s[:maxStringScan]
	}
	if len(s) > e.budget {
		s = s[:e.budget]
	}
	e.budget -= len(s)
	if s == "" {
		return
	}
	nk := normKey(key)
	if typeTag(nk, s) {
		return
	}
	e.keyHints(nk, strings.TrimSpace(s))
	e.scanURLs(s)
	e.scanEmails(s, isMessageIDKey(nk))
	e.scanDomains(s)
	if !strings.Contains(nk, "version") && !strings.Contains(nk, "useragent") {
		e.scanIPs(s)
	}
	e.scanHashes(s)
}

// keyHints accepts whole values that free-text scanning would reject because
// they lack context, e.g. a zoned IPv6 address under "src_ip" or a domain
// whose TLD looks like a file extension under "sender_domain".
func (e *extractor) keyHints(nk, v string) {
	if v == "" || len(v) > 255 {
		return
	}
	switch {
	case hasAnySuffix(nk, "ip", "ipaddress", "ipaddr", "ipv4", "ipv6"):
		v = strings.TrimSuffix(strings.TrimPrefix(v, "["), "]")
		if i := strings.IndexByte(v, '%'); i >= 0 {
			v = v[:i]
		}
		if addr, err := netip.ParseAddr(v); err == nil && !addr.IsUnspecified() {
			e.ips.add(addr.Unmap().String())
		}
	case hasAnySuffix(nk, "domain", "domainname", "fqdn", "hostname", "host"):
		if h := strings.TrimSuffix(strings.ToLower(v), "."); validHostname(h) {
			e.domains.add(h)
		}
	case hasAnySuffix(nk, "md5", "sha1", "sha256", "hash"):
		if h := strings.ToLower(v); isHexString(h) && isHashLength(len(h)) {
			e.hashes.add(h)
		}
	}
}

func (e *extractor) scanURLs(s string) {
	if !strings.Contains(s, "://") {
		return
	}
	for _, m := range urlRe.FindAllString(s, -1) {
		u := e.addURL(trimURL(m))
		// Mail gateways rewrite links; the wrapped destination is the
		// observable an analyst actually needs.
		if u != nil && strings.HasSuffix(strings.ToLower(u.Hostname()), "safelinks.protection.outlook.com") {
			if inner := u.Query().Get("url"); inner != "" && urlRe.MatchString(inner) {
				e.addURL(trimURL(inner))
			}
		}
	}
}

// addURL records raw and its host; it returns the parsed URL, or nil if raw
// is not a usable absolute URL.
func (e *extractor) addURL(raw string) *url.URL {
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" {
		return nil
	}
	host := strings.TrimSuffix(strings.ToLower(u.Hostname()), ".")
	if addr, err := netip.ParseAddr(host); err == nil {
		e.ips.add(addr.Unmap().String())
	} else if validHostname(host) {
		e.domains.add(host)
	}
	if len(raw) <= maxURLLength {
		e.urls.add(normalizeURL(raw))
	}
	return u
}

var htmlEntities = setOf("&quot;", "&gt;", "&lt;", "&#39;", "&apos;")

// trimURL removes punctuation that ends the surrounding sentence or markup
// rather than the URL. Closing brackets are kept when the URL itself opened
// them, as in wiki-style links such as /wiki/Foo_(bar).
func trimURL(u string) string {
	// Counts are taken once and updated as characters are dropped, keeping
	// this linear even for a URL followed by a million ')'.
	opens := map[byte]int{')': strings.Count(u, "("), ']': strings.Count(u, "[")}
	closes := map[byte]int{')': strings.Count(u, ")"), ']': strings.Count(u, "]")}
	for len(u) > 0 {
		// Double-encoded HTML leaves entities glued to the end of links.
		if i := strings.LastIndexByte(u, '&'); i >= 0 && htmlEntities[u[i:]] {
			u = u[:i]
			continue
		}
		c := u[len(u)-1]
		switch c {
		case '.', ',', ';', ':', '!', '?', '"', '\'', '>', '*':
			u = u[:len(u)-1]
			continue
		case ')', ']':
			if opens[c] < closes[c] {
				closes[c]--
				u = u[:len(u)-1]
				continue
			}
		}
		break
	}
	return u
}

// normalizeURL lowercases the scheme and authority, which are
// case-insensitive, and leaves path and query alone because servers may
// treat them case-sensitively.
func normalizeURL(u string) string {
	i := strings.Index(u, "://")
	if i < 0 {
		return u
	}
	rest := u[i+3:]
	end := strings.IndexAny(rest, "/?#")
	if end < 0 {
		end = len(rest)
	}
	return strings.ToLower(u[:i+3]+rest[:end]) + rest[end:]
}

// scanEmails records addresses and their domains. Message-ID style headers
// have the shape local@host but name a message, not a mailbox, so only their
// host is kept.
func (e *extractor) scanEmails(s string, domainOnly bool) {
	if !strings.Contains(s, "@") {
		return
	}
	for _, loc := range emailRe.FindAllStringIndex(s, -1) {
		// "https://paypal.com@evil.example/" carries credentials, not a mailbox.
		if loc[0] >= 2 && s[loc[0]-2:loc[0]] == "//" {
			continue
		}
		if addr, domain, ok := cleanEmail(s[loc[0]:loc[1]]); ok {
			if !domainOnly {
				e.emails.add(addr)
			}
			e.domains.add(domain)
		}
	}
}

func isMessageIDKey(nk string) bool {
	return strings.HasSuffix(nk, "messageid") || nk == "inreplyto" || nk == "references"
}

// cleanEmail validates a regex match and returns the lowercased address and
// its domain.
func cleanEmail(m string) (addr, domain string, ok bool) {
	at := strings.LastIndexByte(m, '@')
	if at < 0 {
		return "", "", false
	}
	local := strings.Trim(m[:at], ".")
	domain = strings.ToLower(m[at+1:])
	if local == "" || len(local) > 64 || !validHostname(domain) {
		return "", "", false
	}
	return strings.ToLower(local) + "@" + domain, domain, true
}

func (e *extractor) scanDomains(s string) {
	if !strings.Contains(s, ".") {
		return
	}
	forEachBareDomain(s, func(d string) bool {
		e.domains.add(d)
		return !e.domains.full()
	})
}

// scanIPs looks at maximal runs of hex digits, dots and colons. Working on
// runs rather than a regex lets us insist that an address is not glued to
// surrounding letters or digits, which is what separates 10.0.0.1 from a
// version like v1.2.3.4 or a build number.
func (e *extractor) scanIPs(s string) {
	for i := 0; i < len(s); {
		if !isIPRunByte(s[i]) {
			i++
			continue
		}
		j := i
		for j < len(s) && isIPRunByte(s[j]) {
			j++
		}
		if j-i >= 2 && j-i <= 64 && strings.ContainsAny(s[i:j], ".:") {
			if ip, ok := ipFromRun(s, i, j); ok {
				e.ips.add(ip)
			}
		}
		i = j
	}
}

// scanHashes accepts maximal hex runs of MD5, SHA-1 or SHA-256 length. Runs of
// decimal digits only are skipped: they are far more likely to be account or
// order numbers than a hash, which would contain a letter with overwhelming
// probability.
func (e *extractor) scanHashes(s string) {
	for i := 0; i < len(s); {
		if !isHexByte(s[i]) {
			i++
			continue
		}
		j := i
		digitsOnly := true
		for j < len(s) && isHexByte(s[j]) {
			if s[j] > '9' {
				digitsOnly = false
			}
			j++
		}
		if isHashLength(j-i) && !digitsOnly {
			e.hashes.add(strings.ToLower(s[i:j]))
		}
		i = j
	}
}

// typeTag reports a schema type name such as Graph's
// "#microsoft.graph.security.alert" or Google's
// "type.googleapis.com/google.apps.alertcenter.type.MailPhishing": dotted
// like a domain, but naming a record type, not a host.
func typeTag(nk, v string) bool {
	if nk != "odatatype" && nk != "type" {
		return false
	}
	v = strings.TrimSpace(v)
	return strings.HasPrefix(v, "#") || strings.HasPrefix(v, "type.googleapis.com/")
}
