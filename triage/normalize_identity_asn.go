package triage

import (
	"net/netip"
	"strconv"
	"strings"
)

// hostingASNs are autonomous systems of virtual-server and hosting
// providers, where anyone can rent an address by the hour: DigitalOcean,
// Hetzner, OVH, Linode, Vultr, M247, Leaseweb, Contabo, ColoCrossing,
// Datacamp, Scaleway, Hostinger, IONOS, netcup, FranTech (BuyVM),
// WorldStream, IP Volume, Timeweb, Stark Industries, Aeza, and Contabo's
// American and Asian networks. The large clouds (Microsoft,
// Amazon, Google) are left out: companies' own virtual desktops, proxies
// and services sign in from them every day.
var hostingASNs = setOf("14061", "24940", "16276", "63949", "20473", "9009", "60781", "28753", "51167", "36352",
	"212238", "12876", "47583", "8560", "46606", "62240",
	"197540", "53667", "49981", "202425", "9123", "44477", "210644", "40021", "141995")

// torExitASNs are autonomous systems of non-profits that exist to run Tor
// exit relays: Stiftung Erneuerbare Freiheit (formerly Zwiebelfreunde),
// the Foundation for Applied Privacy, Emerald Onion and F3 Netze. Traffic
// from them is Tor traffic whatever the alert calls it.
var torExitASNs = setOf("60729", "208323", "396507", "205100")

// torExitPrefixes are the address blocks those operators announce for
// their exits, for alerts that give the address without its network.
var torExitPrefixes = []netip.Prefix{
	netip.MustParsePrefix("185.220.100.0/22"),
	netip.MustParsePrefix("109.70.100.0/24"),
}

// torExit reports an address in torExitPrefixes or an autonomous system
// number in torExitASNs.
func torExit(ip, asn string) bool {
	if torExitASNs[asnText(asn)] {
		return true
	}
	addr, err := netip.ParseAddr(strings.TrimSpace(ip))
	if err != nil {
		return false
	}
	for _, p := range torExitPrefixes {
		if p.Contains(addr) {
			return true
		}
	}
	return false
}

// signInASN returns the autonomous system number the payload states for
// the sign-in's address, as text, whether given as a number, a string
// ("AS14061") or a list of one.
func signInASN(cur *doc) string {
	for _, v := range cur.values("asn", "asnumber", "autonomoussystemnumber", "asnnumber", "ipasn", "srcipasn", "sourceipasn", "srcasn") {
		if arr, ok := v.([]any); ok && len(arr) > 0 {
			v = arr[0]
		}
		if n, ok := asNumber(v); ok && n > 0 {
			return strconv.Itoa(int(n))
		}
		if s, ok := v.(string); ok {
			if s = asnText(strings.TrimSpace(s)); s != "" {
				return s
			}
		}
	}
	return ""
}

// asnText drops the "AS" an autonomous system number is often written
// with ("AS14061", "as14061"), and the owner's name enrichment often
// follows it with ("AS14061 DigitalOcean, LLC"), leaving its number as
// text.
func asnText(asn string) string {
	asn = strings.TrimPrefix(strings.ToUpper(asn), "AS")
	if n := strings.IndexFunc(asn, func(r rune) bool { return r < '0' || r > '9' }); n > 0 {
		return asn[:n]
	}
	return asn
}

// hostingASN reports an autonomous system number, with or without its
// "AS", that belongs to a rentable-server provider (hostingASNs).
func hostingASN(asn string) bool {
	return hostingASNs[asnText(asn)]
}

// addressNote returns what an enrichment map says about ip when it keys
// its notes by address ({"149.28.92.177": "AS20473 Vultr (hosting)"}),
// "" when none does.
func addressNote(cur *doc, ip string) string {
	if ip == "" {
		return ""
	}
	k := normKey(ip)
	for _, e := range cur.entries {
		if e.key == k {
			if s, ok := e.val.(string); ok {
				return s
			}
		}
	}
	return ""
}

// maxNoteDepth bounds how deep address-keyed enrichment is looked for.
const maxNoteDepth = 3

// notesOtherAddress reports whether m, or a map within maxNoteDepth of it,
// holds enrichment keyed by an address other than ip: notes that describe
// each address the alert names ({"203.0.113.10": {...}, "192.0.2.214":
// {...}}), which withoutOtherAddressNotes then leaves out.
func notesOtherAddress(m map[string]any, ip string, depth int) bool {
	for k, v := range m {
		sub, ok := v.(map[string]any)
		if !ok {
			continue
		}
		if _, err := netip.ParseAddr(k); err == nil {
			if k != ip {
				return true
			}
			continue
		}
		if depth < maxNoteDepth && notesOtherAddress(sub, ip, depth+1) {
			return true
		}
	}
	return false
}

// withoutOtherAddressNotes copies m without the address-keyed notes about
// addresses other than ip, so that a sign-in is not read with the network
// of the address its session came from before (the office egress a
// hijacked session started on).
func withoutOtherAddressNotes(m map[string]any, ip string, depth int) map[string]any {
	out := make(map[string]any, len(m))
	for k, v := range m {
		sub, ok := v.(map[string]any)
		if !ok {
			out[k] = v
			continue
		}
		if _, err := netip.ParseAddr(k); err == nil {
			if k == ip {
				out[k] = v
			}
			continue
		}
		if depth < maxNoteDepth {
			sub = withoutOtherAddressNotes(sub, ip, depth+1)
		}
		out[k] = sub
	}
	return out
}
