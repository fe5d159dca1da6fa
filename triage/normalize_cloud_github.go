package triage

import (
	"net/netip"
	"regexp"
	"slices"
	"strings"
)

// GitHub's audit log (organisation and enterprise, through the API, a
// stream or an export) names each event by a dotted action
// ("org.add_member", "public_key.create") and puts beside it the acting
// account, its address and the credential it used: a personal access
// token, an OAuth or GitHub App token, or the web session.

// githubActionRe matches GitHub's dotted audit actions.
var githubActionRe = regexp.MustCompile(`^[a-z_]+(\.[a-z_]+)+$`)

// githubAuditEvent reports a GitHub audit log event: a dotted action, the
// acting account, where it acted from or with what, and the organisation,
// enterprise or repository it acted on.
func githubAuditEvent(d *doc) bool {
	if !d.has("actor") || !d.has("actorip", "actorlocation", "documentid", "hashedtoken", "programmaticaccesstype") || !d.has("org", "business", "repo") {
		return false
	}
	return slices.ContainsFunc(d.scalarStrs("action"), githubActionRe.MatchString)
}

// githubPersistenceActions are audit actions, as normKey folds them, that
// give an account lasting access to code: a member or owner added or
// promoted, an SSH or deploy key, an authorised app or token, a webhook
// that receives every push.
var githubPersistenceActions = []string{"orgaddmember", "orginvitemember", "orgupdatemember", "businessaddadmin", "businessinviteadmin",
	"publickeycreate", "deploykeycreate", "repoaddmember", "teamaddmember", "oauthauthorizationcreate", "integrationinstallationcreate",
	"orgcredentialauthorizationgrant", "hookcreate"}

// callerAddressKeys name where cloud and SaaS audit records put the
// caller's address.
var callerAddressKeys = []string{"actorip", "sourceipaddress", "callerip", "calleripaddress", "callersuppliedipaddress", "clientip", "ipaddress"}

// addressOrPrefixRe finds IPv4 addresses and prefixes in free text
// ("203.0.113.40 (Seattle office)", "4.175.96.0/20 (GitHub Actions)").
var addressOrPrefixRe = regexp.MustCompile(`\b\d{1,3}(\.\d{1,3}){3}(/\d{1,2})?\b`)

// newCallerAddress reports a caller address that is not among the
// addresses the payload lists for the principal's earlier activity
// ("usual_actor_ips_30d", a 90-day history of distinct addresses), or
// that the payload says the credential was used from for the first time.
func newCallerAddress(d *doc, text string) bool {
	if affirmedPhrase(text, "first used from this ip", "first use from this ip", "first used from this address", "never used from this ip", "never used from this address") != "" {
		return true
	}
	current, err := netip.ParseAddr(strings.TrimSpace(d.scalarStr(callerAddressKeys...)))
	if err != nil {
		return false
	}
	var known []netip.Prefix
	for _, e := range d.entries {
		if !containsAnyTerm(e.key, "usual", "history", "previous", "prior", "baseline", "known", "typical") {
			continue
		}
		for _, s := range appendLeafStrings(nil, e.val, 0) {
			for _, m := range addressOrPrefixRe.FindAllString(s, -1) {
				if !strings.Contains(m, "/") {
					m += "/32"
				}
				if p, err := netip.ParsePrefix(m); err == nil {
					known = append(known, p.Masked())
				}
			}
		}
	}
	return len(known) > 0 && !slices.ContainsFunc(known, func(p netip.Prefix) bool { return p.Contains(current) })
}
