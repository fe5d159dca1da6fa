package triage

import "strings"

// Who acted in a cloud record, and whom it gave access to, is named
// differently by every provider: an ARN, an e-mail, an audit actor, the
// resource a posture issue is about, a token's claims.

// cloudPrincipal returns the acting identity of a cloud record of format.
func cloudPrincipal(format string, d *doc) string {
	principal := d.str("principalemail", "useridentityarn", "useridentityusername", "accesskeydetailsusername", "caller", "invokingidentity")
	switch format {
	case "github_audit":
		principal = d.scalarStr("actor")
	case "wiz_issue":
		// A Wiz issue is about the identity or workload it names.
		if r := d.maps("resource"); len(r) > 0 {
			principal = newDoc(r[0]).firstOf("name", "id")
		}
	}
	if principal == "" {
		principal = d.str("username", "principalid")
	}
	if principal == "" && format == "azure_activity" {
		principal = claimedUPN(d)
	}
	return principal
}

// claimedUPN returns the user principal name among a token's claims, as
// Azure's resource logs give them (keys such as
// "http://schemas.xmlsoap.org/ws/2005/05/identity/claims/upn").
func claimedUPN(d *doc) string {
	for _, e := range d.entries {
		if s, ok := e.val.(string); ok && strings.HasSuffix(e.key, "claimsupn") {
			return s
		}
	}
	return ""
}

// granteeKeys name where cloud audit records put the account a role or
// membership was given to.
var granteeKeys = []string{"member", "members", "grantee", "granteeemail", "assignee", "addedmember", "newmember", "principalemailadded", "principalupn", "targetupn"}

// consumerGrantee reports a grantee that is a consumer mailbox: GCP names
// members "user:name@domain", others give the address alone.
func consumerGrantee(d *doc) bool {
	for _, m := range d.strs(granteeKeys...) {
		m = strings.ToLower(strings.TrimSpace(m))
		if _, rest, ok := strings.Cut(m, ":"); ok {
			m = rest
		}
		m = guestHomeAddress(m)
		if _, domain, ok := cleanEmail(m); ok && freeMailDomains[registrableDomain(domain)] {
			return true
		}
	}
	return false
}

// guestHomeAddress turns an Entra guest's user principal name
// (name_outlook.com#EXT#@tenant.onmicrosoft.com) back into the address
// the guest was invited with (name@outlook.com); other names are returned
// unchanged.
func guestHomeAddress(upn string) string {
	local, _, ok := strings.Cut(upn, "#ext#@")
	if !ok {
		return upn
	}
	i := strings.LastIndexByte(local, '_')
	if i <= 0 {
		return upn
	}
	return local[:i] + "@" + local[i+1:]
}
