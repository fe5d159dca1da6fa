package triage

import (
	"net/netip"
	"sort"
	"strings"

	"golang.org/x/net/publicsuffix"
)

// Low-level recognisers shared by indicator extraction and the analyzers.
// They work on byte runs instead of regular expressions where the decision
// depends on neighbouring characters, which RE2 cannot look at.

// fileExtensions are suffixes that look like TLDs but, in free text, almost
// always end a file name (invoice.pdf, payload.exe). A few are real TLDs
// (.zip, .mov, .sh); those still count when they appear as a URL host or
// under a key that names a domain, where the context is unambiguous.
var fileExtensions = setOf(
	"7z", "ace", "apk", "asp", "aspx", "avi", "bak", "bat", "bin", "bmp", "bz", "bz2",
	"cab", "cer", "cfg", "chm", "class", "cmd", "conf", "cpl", "crt", "css", "csv", "dat",
	"db", "deb", "dll", "dmg", "doc", "docm", "docx", "dot", "dotm", "drv", "elf", "eml",
	"evtx", "exe", "gif", "go", "gz", "hta", "htm", "html", "ico", "img", "inf", "ini",
	"iso", "jar", "java", "jpeg", "jpg", "js", "jse", "json", "jsp", "key", "lnk", "log",
	"md", "mov", "mp", "msg", "msi", "msp", "ocx", "one", "pdf", "pem", "php", "png",
	"pot", "potm", "pps", "ppt", "pptm", "pptx", "ps", "psd", "psm", "py", "pyc", "rar",
	"reg", "rpm", "rtf", "scr", "sh", "svg", "sys", "tar", "tgz", "tmp", "toml", "txt",
	"vb", "vba", "vbe", "vbs", "vhd", "vhdx", "wav", "wsf", "wsh", "xla", "xlam", "xls",
	"xlsb", "xlsm", "xlsx", "xlt", "xltm", "xml", "xps", "yaml", "yml", "zip",
)

func isDomainRunByte(c byte) bool { return isAlnum(c) || c == '.' || c == '-' }

// forEachBareDomain calls fn for each domain name mentioned in free text until
// fn returns false. It scans maximal runs of [A-Za-z0-9.-] and keeps the
// longest valid suffix of labels, a linear-time equivalent of a domain regex
// that also gives easy access to the surrounding characters.
func forEachBareDomain(s string, fn func(string) bool) {
	for i := 0; i < len(s); {
		if !isDomainRunByte(s[i]) {
			i++
			continue
		}
		j := i
		for j < len(s) && isDomainRunByte(s[j]) {
			j++
		}
		if d, ok := bareDomain(s, i, j); ok && !fn(d) {
			return
		}
		i = j
	}
}

// bareDomain decides whether the run s[start:end] ends in a domain name. The
// heuristics reject the usual look-alikes: file names, the local part of an
// e-mail address, dotted code identifiers such as System.Net.WebClient or
// os.path.join(, and sentences missing a space.
func bareDomain(s string, start, end int) (string, bool) {
	if end < len(s) && (s[end] == '@' || s[end] == '(' || s[end] == '_') {
		return "", false
	}
	if start > 0 && (s[start-1] == '$' || s[start-1] == '%' || s[start-1] == '_') {
		return "", false
	}
	run := strings.TrimRight(s[start:end], ".-")
	if len(run) > 300 {
		// No domain exceeds 253 bytes; drop the possibly cut first label.
		run = run[len(run)-300:]
		run = run[strings.IndexByte(run, '.')+1:]
	}
	if !strings.Contains(run, ".") {
		return "", false
	}
	labels := strings.Split(run, ".")
	tld := labels[len(labels)-1]
	if tld != strings.ToLower(tld) && tld != strings.ToUpper(tld) {
		return "", false
	}
	// Keep the longest suffix of valid labels, so "foo..bar.com" yields
	// bar.com; a leading hyphen is punctuation ("-see.example.com").
	first := len(labels) - 1
	for first > 0 {
		l := labels[first-1]
		if !validLabel(l) {
			if t := strings.TrimLeft(l, "-"); t != l && validLabel(t) {
				labels[first-1] = t
				first--
			}
			break
		}
		first--
	}
	d := strings.ToLower(strings.Join(labels[first:], "."))
	if fileExtensions[strings.ToLower(tld)] || !validHostname(d) || !knownTLD(strings.ToLower(tld)) {
		return "", false
	}
	return d, true
}

// validHostname reports whether h is a lowercase, multi-label DNS name whose
// last label looks like a TLD (letters, or an IDN xn-- label).
func validHostname(h string) bool {
	if len(h) < 4 || len(h) > 253 {
		return false
	}
	labels := strings.Split(h, ".")
	if len(labels) < 2 {
		return false
	}
	for _, l := range labels[:len(labels)-1] {
		if !validLabel(l) {
			return false
		}
	}
	tld := labels[len(labels)-1]
	if strings.HasPrefix(tld, "xn--") && validLabel(tld) {
		return true
	}
	if len(tld) < 2 || len(tld) > 24 {
		return false
	}
	for i := 0; i < len(tld); i++ {
		if tld[i] < 'a' || tld[i] > 'z' {
			return false
		}
	}
	return true
}

// specialUseTLDs are names reserved for documentation, testing and local
// networks (RFC 2606, RFC 6761, RFC 6762, ICANN's .internal) that real
// alerts carry as host names though no registry delegates them.
var specialUseTLDs = map[string]bool{"example": true, "test": true, "invalid": true, "local": true, "internal": true}

// knownTLD reports whether tld is a top-level domain delegated by ICANN,
// by the public suffix list, or a special-use one: in free text, dotted
// identifiers such as microsoft.graph.security.alert or
// com.apple.quarantine end in a word, not a TLD.
func knownTLD(tld string) bool {
	if specialUseTLDs[tld] {
		return true
	}
	_, icann := publicsuffix.PublicSuffix(tld)
	return icann
}

// validLabel reports whether l is a letters-digits-hyphen DNS label.
func validLabel(l string) bool {
	if len(l) == 0 || len(l) > 63 || l[0] == '-' || l[len(l)-1] == '-' {
		return false
	}
	for i := 0; i < len(l); i++ {
		if !isAlnum(l[i]) && l[i] != '-' {
			return false
		}
	}
	return true
}

func isIPRunByte(c byte) bool { return isHexByte(c) || c == ':' || c == '.' }

func ipFromRun(s string, start, end int) (string, bool) {
	for start < end && (s[start] == '.' || s[start] == ':' && !strings.HasPrefix(s[start:end], "::")) {
		start++
	}
	for end > start && (s[end-1] == '.' || s[end-1] == ':' && !strings.HasSuffix(s[start:end], "::")) {
		end--
	}
	if start >= end || start > 0 && isAlnum(s[start-1]) || end < len(s) && isAlnum(s[end]) {
		return "", false
	}
	cand := s[start:end]
	if strings.Count(cand, ":") >= 2 && strings.ContainsAny(cand, "0123456789") {
		if addr, err := netip.ParseAddr(cand); err == nil && addr.Is6() && !addr.IsUnspecified() {
			return addr.Unmap().String(), true
		}
	}
	// An IPv4 address may carry a port ("10.0.0.1:443").
	if i := strings.IndexByte(cand, ':'); i >= 0 {
		cand = cand[:i]
	}
	if strings.Count(cand, ".") != 3 {
		return "", false
	}
	// "Chrome/120.0.0.0" is a product version, but "http://1.2.3.4" is not.
	if start >= 2 && s[start-1] == '/' && isAlnum(s[start-2]) {
		return "", false
	}
	addr, err := netip.ParseAddr(cand)
	if err != nil || !addr.Is4() {
		return "", false
	}
	return addr.String(), true
}

func isHashLength(n int) bool { return n == 32 || n == 40 || n == 64 }

func isHexByte(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

func isHexString(s string) bool {
	for i := 0; i < len(s); i++ {
		if !isHexByte(s[i]) {
			return false
		}
	}
	return s != ""
}

func isAlnum(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

// normKey folds a field name to lowercase alphanumerics so that vendor
// spellings such as "SenderIP", "sender_ip" and "sender-ip" compare equal.
func normKey(k string) string {
	var b strings.Builder
	b.Grow(len(k))
	for i := 0; i < len(k); i++ {
		c := k[i]
		switch {
		case c >= 'A' && c <= 'Z':
			b.WriteByte(c + 'a' - 'A')
		case c >= 'a' && c <= 'z', c >= '0' && c <= '9':
			b.WriteByte(c)
		}
	}
	return b.String()
}

func hasAnySuffix(s string, suffixes ...string) bool {
	for _, suf := range suffixes {
		if strings.HasSuffix(s, suf) {
			return true
		}
	}
	return false
}

func setOf(items ...string) map[string]bool {
	m := make(map[string]bool, len(items))
	for _, it := range items {
		m[it] = true
	}
	return m
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
