package triage

import "strings"

// lookupZones are DNS zones that security products and mail servers query
// by design with data packed into long, random-looking names: file and URL
// reputation (Sophos Live Protection, ESET LiveGrid, Team Cymru's malware
// hash registry) and the block lists mail servers consult for every
// message (Spamhaus, SURBL, URIBL, SpamCop, Barracuda, SORBS, Mailspike).
// Their traffic has every shape of DNS tunnelling and carries no one's
// data out.
var lookupZones = []string{
	"sophosxl.net", "e5.sk", "hash.cymru.com",
	"spamhaus.org", "spamhaus.net", "surbl.org", "uribl.com", "spamcop.net",
	"barracudacentral.org", "sorbs.net", "mailspike.net",
}

// dnsLookupService names the lookup zone a DNS alert's queries go to, ""
// when none does or when any named query goes elsewhere.
func dnsLookupService(d *doc) string {
	zone := ""
	for _, z := range lookupZones {
		if strings.Contains(d.text, z) {
			zone = z
			break
		}
	}
	if zone == "" {
		return ""
	}
	for _, q := range d.strs("samplequeries", "query", "queries", "qname", "dnsquery", "domain", "basedomain", "parentdomain", "registereddomain") {
		q = strings.TrimSuffix(strings.ToLower(strings.TrimSpace(q)), ".")
		if q != "" && strings.Contains(q, ".") && !underLookupZone(q) {
			return ""
		}
	}
	return zone
}

// underLookupZone reports a DNS name that is one of lookupZones or lies
// under one.
func underLookupZone(name string) bool {
	for _, z := range lookupZones {
		if name == z || strings.HasSuffix(name, "."+z) {
			return true
		}
	}
	return false
}
