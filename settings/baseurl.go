package settings

import (
	"net"
	"net/url"
	"strings"
)

// fieldAPIKeyOrigin names, in the stored document, the origin the sealed
// API key was entered for; the key is never handed out for another one.
const fieldAPIKeyOrigin = "api_key_origin"

// Origin returns the scheme, host and port of an http(s) URL in one
// normal form ("https://api.example.com:443"), or "" when raw is not one.
// Two base URLs with the same origin reach the same server, so a stored
// credential may follow a change of path but not of origin.
func Origin(raw string) string {
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil || u.Host == "" {
		return ""
	}
	scheme := strings.ToLower(u.Scheme)
	port := u.Port()
	if port == "" {
		switch scheme {
		case "http":
			port = "80"
		case "https":
			port = "443"
		}
	}
	return scheme + "://" + net.JoinHostPort(strings.ToLower(u.Hostname()), port)
}

// RedactURL hides the parts of a URL that may carry credentials: the user
// information and every query value become Mask (and so does a fragment).
// A URL with none of them is returned exactly as given.
func RedactURL(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || (u.User == nil && u.RawQuery == "" && u.Fragment == "" && !u.ForceQuery) {
		return raw
	}
	var b strings.Builder
	b.WriteString(u.Scheme + "://")
	if u.User != nil {
		b.WriteString(Mask + "@")
	}
	b.WriteString(u.Host)
	b.WriteString(u.EscapedPath())
	if u.RawQuery != "" || u.ForceQuery {
		b.WriteByte('?')
		for i, pair := range strings.Split(u.RawQuery, "&") {
			if u.RawQuery == "" {
				break
			}
			if i > 0 {
				b.WriteByte('&')
			}
			name, _, _ := strings.Cut(pair, "=")
			b.WriteString(name + "=" + Mask)
		}
	}
	if u.Fragment != "" {
		b.WriteString("#" + Mask)
	}
	return b.String()
}

// checkBaseURL settles the base_url of an LLM write against the stored
// setting: the redacted form read back from a GET stands for the stored
// URL, any other URL holding the mask is refused (the hidden parts cannot
// be merged into an edited URL), and a move to another origin while a key
// is stored requires the key again, so the stored key never reaches a
// server it was not entered for.
func checkBaseURL(l *LLM, stored storedLLM, secret secretInput, errs fieldErrors) {
	if l.BaseURL != stored.baseURL && l.BaseURL == RedactURL(stored.baseURL) {
		l.BaseURL = stored.baseURL
	}
	if strings.Contains(l.BaseURL, Mask) && l.BaseURL != stored.baseURL {
		errs.add("base_url", "contains the mask "+Mask+"; send the whole URL, or the value read back unchanged")
		return
	}
	// An empty base_url sends the key nowhere (it never pairs with the
	// environment's base URL), so only a move to a real origin counts.
	if keepsKey(stored, secret) && l.BaseURL != "" && Origin(l.BaseURL) != stored.keyOrigin() {
		errs.add(fieldAPIKey, "must be given again when base_url moves to another origin (scheme, host and port); the stored key is not sent to a new origin")
	}
}

// keepsKey reports whether a write keeps the stored API key.
func keepsKey(stored storedLLM, secret secretInput) bool {
	return stored.sealed != "" && !secret.replaces() && !(secret.given && secret.value == "")
}

// keyOriginAfter is the origin to record for the key a write stores: the
// new base URL's, or while base_url is empty, the kept key's own.
func keyOriginAfter(baseURL string, stored storedLLM, secret secretInput) string {
	if baseURL == "" && keepsKey(stored, secret) {
		return stored.keyOrigin()
	}
	return Origin(baseURL)
}

// storedLLM is what a write of the llm setting needs from the stored one.
type storedLLM struct {
	baseURL string
	sealed  string
	origin  string // fieldAPIKeyOrigin; empty in rows written before it existed
}

// keyOrigin is the origin the stored key belongs to: the recorded one, or
// for rows written before origins were recorded, the stored base URL's.
func (s storedLLM) keyOrigin() string {
	if s.origin != "" {
		return s.origin
	}
	return Origin(s.baseURL)
}
