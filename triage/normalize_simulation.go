package triage

import (
	"net/netip"
	"strings"
)

// Awareness platforms (KnowBe4, Cofense PhishMe, Proofpoint ThreatSim,
// Gophish, Hoxhunt, Microsoft's attack simulation) stamp their mail with a
// campaign header, and the tools users report mail through tag or close
// such reports as a simulation. A reported simulation is the user doing
// what the training asked, not a threat. Products file the header either
// as a key (X-PhishMe: true) or as a name/value pair in a header list
// ({"header": "X-PHISHTEST", "value": ...}); the reporting tool's verdict
// sits in its tags, category, rule or recipe names.

// simulationHeaderMarkers are the folded names of the campaign headers
// simulation platforms add.
var simulationHeaderMarkers = []string{"xphishtest", "xphishme", "xkb4", "xthreatsim", "xgophish", "xhoxhunt", "xphishsim", "xphishingsimulation"}

// simulationVerdictMarkers are folded tags and verdicts the reporting tool
// gives a report it matched to a simulation campaign.
var simulationVerdictMarkers = []string{"phishtest", "phishmesimulation", "phishsim", "phishingsimulation", "simulatedphish", "phishingtest",
	"awarenesstraining", "trainingemail", "simulationemail"}

// simulationVerdicts are whole folded verdicts meaning the same.
var simulationVerdicts = setOf("simulation", "training", "simulated")

// headerNameKeys name where a header list files each header's name.
var headerNameKeys = setOf("header", "name", "headername", "field", "key")

// campaignHeader reports a simulation platform's campaign header, filed
// as a key or by name in a header list.
func campaignHeader(e entry) bool {
	if hasAnyPrefix(e.key, simulationHeaderMarkers) {
		return true
	}
	s, ok := e.val.(string)
	return ok && headerNameKeys[e.key] && strings.Contains(e.scope, "header") && hasAnyPrefix(normKey(s), simulationHeaderMarkers)
}

// reportedAsSimulation reports the reporting tool's own tag or verdict
// naming a simulation.
func reportedAsSimulation(d *doc) bool {
	for _, s := range d.strs("tags", "tag", "labels", "category", "classification", "verdict", "disposition", "rulenames", "rules", "recipes", "matchedrules") {
		k := normKey(s)
		if simulationVerdicts[k] || containsAnyTerm(k, simulationVerdictMarkers...) {
			return true
		}
	}
	return false
}

// hasAnyPrefix reports whether s starts with one of prefixes.
func hasAnyPrefix(s string, prefixes []string) bool {
	for _, p := range prefixes {
		if strings.HasPrefix(s, p) {
			return true
		}
	}
	return false
}

// simulationSendingRanges are the addresses KnowBe4 publishes for its
// simulated phishing mail, the most deployed awareness platform; its
// customers allow-list them.
var simulationSendingRanges = mustPrefixes("147.160.167.0/26", "23.21.109.197/32", "23.21.109.212/32")

// simulationSendingDomains are the registrable domains of simulation
// platforms' own mail servers, as they appear in the envelope sender,
// return path or HELO name (never the From header a lure forges).
var simulationSendingDomains = setOf("knowbe4.com")

// senderAddressKeys name where mail products file the connecting server's
// address.
var senderAddressKeys = []string{"senderip", "senderipaddress", "senderipv4", "senderipv6", "connectingip", "clientip", "sourceip", "originatingip", "smtpclientip"}

// envelopeKeys name where mail products file the envelope sender, return
// path and HELO name.
var envelopeKeys = []string{"returnpath", "envelopefrom", "envelopesender", "mailfrom", "smtpmailfrom", "p1sender", "sendermailfromaddress", "helo", "senderhostname"}

// routeKeys name where gateways file the admin-built policy route or
// mail-flow rule that handled a message.
var routeKeys = []string{"policyroutes", "policyroute", "routes", "deliveryroute", "transportrule", "transportrules", "mailflowrule", "mailflowrules", "appliedrules"}

// simulationInfrastructure reports mail that came through a simulation
// platform's own sending infrastructure, or through the route the
// organisation's mail admins built for its simulations: facts the
// receiving gateway records, not headers (X-Mailer, Message-ID, From) the
// sender writes. The envelope sender is the sender's to write too, so it
// counts only where SPF (spf, as the e-mail reader parsed it) did not
// fail it.
func simulationInfrastructure(d *doc, spf string) bool {
	for _, s := range d.scalarStrs(senderAddressKeys...) {
		if addr, err := netip.ParseAddr(strings.TrimSpace(s)); err == nil && inPrefixes(addr, simulationSendingRanges) {
			return true
		}
	}
	if !strings.Contains(spf, "fail") {
		for _, s := range d.scalarStrs(envelopeKeys...) {
			host := strings.ToLower(strings.TrimSpace(s))
			if _, domain, ok := cleanEmail(host); ok {
				host = domain
			}
			if simulationSendingDomains[registrableDomain(strings.Trim(host, "<>"))] {
				return true
			}
		}
	}
	for _, s := range d.scalarStrs(routeKeys...) {
		if containsAnyTerm(normKey(s), "phishsim", "phishtest", "phishingsimulation", "knowbe4", "psat") {
			return true
		}
	}
	return false
}

// mustPrefixes parses CIDR prefixes written in the source.
func mustPrefixes(cidrs ...string) []netip.Prefix {
	out := make([]netip.Prefix, len(cidrs))
	for i, c := range cidrs {
		out[i] = netip.MustParsePrefix(c)
	}
	return out
}

// inPrefixes reports whether addr lies in one of prefixes.
func inPrefixes(addr netip.Addr, prefixes []netip.Prefix) bool {
	for _, p := range prefixes {
		if p.Contains(addr.Unmap()) {
			return true
		}
	}
	return false
}
