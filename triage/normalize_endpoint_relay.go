package triage

import (
	"regexp"
	"slices"
	"strings"
)

// A ScreenConnect (ConnectWise Control) client joins the relay named in
// its launch string (`?e=Access&y=Guest&h=support.contoso.com&p=8041`).
// An organisation's own support instance runs on its own domain or a
// cloud instance named for it (contoso-it.screenconnect.com); the client
// of an intruder's or a scammer's instance joins a relay no name of the
// organisation is in.

// screenConnectRelayRe finds the relay host of a ScreenConnect launch
// string in lowercased text.
var screenConnectRelayRe = regexp.MustCompile(`[?&]h=([a-z0-9][a-z0-9.-]*[a-z0-9])(&|"|\s|$)`)

// netbiosAccountRe finds the Windows domain of an account written
// DOMAIN\user.
var netbiosAccountRe = regexp.MustCompile(`^([a-z][a-z0-9-]{2,14})\\[^\\\s]+$`)

// addressDomainRe finds the domain of an e-mail address or user
// principal name.
var addressDomainRe = regexp.MustCompile(`^[^@\s]+@([a-z0-9-]+(\.[a-z0-9-]+)+)$`)

// accountDomainKeys (folded) name the Windows or directory domain of an
// account or an agent, or the organisation's (or its managing partner's)
// declared primary domain. A bare "domain" is left out: on an EDR or network
// alert it is as often the domain a process contacted, the relay itself.
var accountDomainKeys = setOf("agentdomain", "userdomain", "domainname", "ntdomain", "accountdomain", "logondomain",
	"subjectdomainname", "targetdomainname", "windowsdomain", "addomain", "machinedomain", "computerdomain",
	"orgdomain", "organizationdomain", "organisationdomain", "tenantdomain", "companydomain", "customerdomain", "primarydomain", "partnerprimarydomain")

// notOrgNames are account domains and words that name no organisation.
var notOrgNames = setOf("ntauthority", "nt authority", "workgroup", "builtin", "localhost", "local", "localdomain",
	"fontdriverhost", "windowmanager", "domain", "corp", "internal", "screenconnect", "connectwise", "onmicrosoft")

// remoteRelay is the relay host the payload's ScreenConnect launch
// string names, or "".
func remoteRelay(commands string) string {
	if m := screenConnectRelayRe.FindStringSubmatch(strings.ToLower(commands)); m != nil {
		return m[1]
	}
	return ""
}

// orgIdentity is what the payload says the organisation is called: its
// registrable domains (from its users' addresses and its declared
// domains) and, folded to letters and digits, every name it goes by,
// the Windows domain of its accounts included.
type orgIdentity struct {
	domains []string
	names   []string
}

// readOrgIdentity reads the organisation's domains and names from the
// payload's account names, addresses and account-domain fields.
func readOrgIdentity(d *doc) orgIdentity {
	domains, names := map[string]bool{}, map[string]bool{}
	addName := func(name string) {
		if n := normKey(name); len(n) >= 4 && !notOrgNames[n] {
			names[n] = true
		}
	}
	addDomain := func(host string) {
		if r := registrableDomain(host); r != "" && !freeMailDomains[r] && !isCustomerContentHost(host) && !notOrgNames[normKey(secondLevel(host))] {
			domains[r] = true
			addName(secondLevel(host))
		}
	}
	for _, e := range d.entries {
		s, ok := e.val.(string)
		if !ok || len(s) > 120 {
			continue
		}
		s = strings.ToLower(strings.TrimSpace(s))
		if m := netbiosAccountRe.FindStringSubmatch(s); m != nil {
			addName(m[1])
		}
		if m := addressDomainRe.FindStringSubmatch(s); m != nil {
			addDomain(m[1])
		}
		if accountDomainKeys[e.key] && !strings.ContainsAny(s, " /\\@") {
			if strings.Contains(s, ".") {
				addDomain(s)
			} else {
				addName(s)
			}
		}
	}
	return orgIdentity{domains: sortedKeys(domains), names: sortedKeys(names)}
}

// relayOnOwnDomain reports a relay under one of the organisation's own
// registrable domains (support.contoso.com for contoso.com).
func relayOnOwnDomain(host string, id orgIdentity) bool {
	return slices.Contains(id.domains, registrableDomain(host))
}

// relayNamedForOrg reports a relay whose name carries one of the
// organisation's names (remote.contosodental.no for CONTOSO\ accounts, a
// contoso-it.screenconnect.com cloud instance). Anyone can register such
// a name, a help-desk impersonator first of all, so it counts only with
// other evidence.
func relayNamedForOrg(host string, id orgIdentity) bool {
	label := secondLevel(host)
	if hostWithin(host, "screenconnect.com") && host != "screenconnect.com" {
		label = strings.TrimSuffix(host, ".screenconnect.com")
	}
	label = normKey(label)
	for _, n := range id.names {
		if strings.Contains(label, n) {
			return true
		}
	}
	return false
}
