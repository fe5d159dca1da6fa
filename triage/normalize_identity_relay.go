package triage

import (
	"net/netip"
	"strings"
)

// appleRelayBlocks are the address blocks iCloud Private Relay's egress
// partners hand its users' traffic out of: Akamai's 172.224.0.0/12
// (AS36183) and Cloudflare's 104.28.0.0/16, as Apple's published egress
// list shows.
var appleRelayBlocks = []netip.Prefix{
	netip.MustParsePrefix("172.224.0.0/12"),
	netip.MustParsePrefix("104.28.0.0/16"),
}

// appleRelayEgress reports an anonymous sign-in address that is iCloud
// Private Relay's even though the payload never says so: the address sits
// in a relay egress block and the browser is Safari on an iPhone, iPad or
// Mac, the only browser the relay carries. Identity providers list these
// addresses as anonymous (Entra's anonymizedIPAddress) without naming
// the relay.
func appleRelayEgress(ip string, cur *doc) bool {
	addr, err := netip.ParseAddr(strings.TrimSpace(ip))
	if err != nil {
		return false
	}
	inBlock := false
	for _, p := range appleRelayBlocks {
		inBlock = inBlock || p.Contains(addr)
	}
	return inBlock && appleSafari(cur.text)
}

// appleSafari reports a Safari user agent on an Apple device in lower-case
// text: a device name and Safari's product token, and none of the other
// browsers whose agents also carry Safari's.
func appleSafari(text string) bool {
	apple := strings.Contains(text, "iphone") || strings.Contains(text, "ipad") || strings.Contains(text, "macintosh")
	if !apple || !strings.Contains(text, "safari/") {
		return false
	}
	for _, other := range []string{"chrome/", "crios/", "fxios/", "firefox/", "edgios/", "edg/", "opr/"} {
		if strings.Contains(text, other) {
			return false
		}
	}
	return true
}
