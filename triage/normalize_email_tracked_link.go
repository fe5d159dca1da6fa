package triage

import (
	"encoding/base64"
	"regexp"
	"strings"
)

// Phishing kits personalise each lure's link with the recipient's address,
// base64-encoded in the path, query or fragment, so that the fake sign-in
// page opens with the victim's name already filled in and the kit can
// tell which recipients clicked. Marketing senders track clicks with
// opaque identifiers instead; an address encoded into the link is the
// kit's habit.

// base64TokenRe finds runs that could be base64 or base64url: long enough
// to hold an address, with padding at most at the end.
var base64TokenRe = regexp.MustCompile(`[A-Za-z0-9+/_-]{12,}={0,2}`)

// addressRe matches a whole decoded token that is one e-mail address.
var addressRe = regexp.MustCompile(`^[A-Za-z0-9._%+-]{1,64}@[A-Za-z0-9-]{1,63}(\.[A-Za-z0-9-]{1,63})+$`)

// encodedAddressLink returns the address the first of the message's links
// carries base64-encoded, or "". The links keep their path and query as
// written, since base64 is case-sensitive.
func encodedAddressLink(urls []string) string {
	for _, link := range urls {
		if addr := encodedAddress(link); addr != "" {
			return addr
		}
	}
	return ""
}

// encodedAddress returns the e-mail address one of the link's tokens
// decodes to (standard or URL-safe alphabet, padded or not), or "".
func encodedAddress(link string) string {
	_, rest, found := strings.Cut(link, "://")
	if !found {
		return ""
	}
	for _, tok := range base64TokenRe.FindAllString(rest, 20) {
		// '/' is base64 but also the path separator: try the run whole
		// and each path segment of it.
		for _, part := range append([]string{tok}, strings.Split(tok, "/")...) {
			raw := strings.TrimRight(part, "=")
			if len(raw) < 12 {
				continue
			}
			for _, enc := range []*base64.Encoding{base64.RawStdEncoding, base64.RawURLEncoding} {
				b, err := enc.DecodeString(raw)
				if err == nil && addressRe.Match(b) {
					return strings.ToLower(string(b))
				}
			}
		}
	}
	return ""
}
