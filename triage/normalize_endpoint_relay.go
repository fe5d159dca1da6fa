package triage

import (
	"regexp"
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

// orgNames are the names the organisation goes by in the payload, folded
// to letters and digits: the Windows domain of its accounts, the domain
// of its users' addresses, and the values of its account-domain fields.
func orgNames(d *doc) []string {
	seen := map[string]bool{}
	add := func(name string) {
		if n := normKey(name); len(n) >= 4 && !notOrgNames[n] {
			seen[n] = true
		}
	}
	for _, e := range d.entries {
		s, ok := e.val.(string)
		if !ok || len(s) > 120 {
			continue
		}
		s = strings.ToLower(strings.TrimSpace(s))
		if m := netbiosAccountRe.FindStringSubmatch(s); m != nil {
			add(m[1])
		}
		if m := addressDomainRe.FindStringSubmatch(s); m != nil && !freeMailDomains[registrableDomain(m[1])] && !isCustomerContentHost(m[1]) {
			add(secondLevel(m[1]))
		}
		if accountDomainKeys[e.key] && !strings.ContainsAny(s, " /\\@") {
			if strings.Contains(s, ".") {
				add(secondLevel(s))
			} else {
				add(s)
			}
		}
	}
	names := make([]string, 0, len(seen))
	for n := range seen {
		names = append(names, n)
	}
	return names
}

// ownRelay reports a relay host that carries one of the organisation's
// names: its own domain (support.contoso.com, remote.contosodental.no) or
// a cloud instance named for it (contoso-it.screenconnect.com).
func ownRelay(host string, names []string) bool {
	label := secondLevel(host)
	if hostWithin(host, "screenconnect.com") && host != "screenconnect.com" {
		label = strings.TrimSuffix(host, ".screenconnect.com")
	}
	label = normKey(label)
	for _, n := range names {
		if strings.Contains(label, n) {
			return true
		}
	}
	return false
}
