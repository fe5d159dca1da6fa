package triage

import "strings"

// forwardingKeys hold a forwarding setting's destination in Exchange
// audit parameters, Graph mailbox configuration evidence and Google
// Workspace forwarding alerts.
var forwardingKeys = []string{"forwardingsmtpaddress", "forwardingaddress", "forwardto", "redirectto", "forwardingtargets", "forwardingemail", "destination", "displayname", "description"}

// readForwarding reads an alert about automatic mail forwarding: whether
// its destinations stay with the organisation (its own domain, or its own
// tenant of a service such as contoso.zendesk.com) and whether the change
// is on record.
func readForwarding(d *doc, f *EmailFields) {
	kind := normKey(lowerJoin(d.strs("title", "alertname", "name", "configurationtype", "type", "operation")))
	if !containsAnyTerm(kind, "forwarding", "autoforward", "redirectrule", "mailredirect", "redirectto") {
		return
	}
	f.Forwarding = true
	outside, ours, consumer, known := forwardingDestinations(d, d.strs(forwardingKeys...))
	if !known {
		return
	}
	f.ForwardingConsumer = consumer
	f.ForwardingOutside = outside > 0
	f.ForwardingOwnService = ours > 0 && outside == 0
	f.ChangeRecord = d.has("changeticket", "changerequest", "changenumber", "changeid") || containsAnyTerm(d.text, "change ticket", "change request", "change record")
}

// forwardingDestinations sorts the addresses in targets into the
// organisation's own (its domains, or its tenant of a service) and outside
// ones, and tells whether an outside one is a consumer mailbox. The
// organisation is the mailbox owner's domain; known is false when the
// payload names no owner, and nothing is counted then. Addresses of the
// owner's own mailboxes are skipped.
func forwardingDestinations(d *doc, targets []string) (outside, ours int, consumer, known bool) {
	var own []string
	mailboxes := map[string]bool{}
	for _, s := range d.strs("mailboxprimaryaddress", "primaryaddress", "userprincipalname", "upn", "mailbox", "user", "actor", "userid") {
		if addr := firstEmail(s); addr != "" {
			mailboxes[addr] = true
			own = append(own, registrableDomain(addr[strings.LastIndexByte(addr, '@')+1:]))
		}
	}
	if len(own) == 0 {
		return 0, 0, false, false
	}
	for _, s := range targets {
		for _, match := range emailRe.FindAllString(s, 20) {
			addr, domain, ok := cleanEmail(match)
			switch {
			case !ok || mailboxes[addr]:
			case organisationsOwn(domain, own):
				ours++
			default:
				outside++
				consumer = consumer || freeMailDomains[registrableDomain(domain)]
			}
		}
	}
	return outside, ours, consumer, true
}

// organisationsOwn reports whether domain is one of the organisation's
// own domains or its tenant on a service: the organisation's name as the
// leftmost label of another registrable domain (contoso.zendesk.com).
func organisationsOwn(domain string, own []string) bool {
	reg := registrableDomain(domain)
	for _, o := range own {
		if reg == o {
			return true
		}
		if name := secondLevel(o); name != "" && strings.HasPrefix(domain, name+".") && strings.Count(domain, ".") > strings.Count(reg, ".") {
			return true
		}
	}
	return false
}
