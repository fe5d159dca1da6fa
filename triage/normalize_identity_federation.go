package triage

import "strings"

// An intruder with administrative rights keeps a tenant by changing how it
// authenticates everyone: a domain switched to federation with a token
// issuer they run (Entra "Set domain authentication", "Set federation
// settings on domain"), an identity provider added with routing for the
// administrators (Okta system.idp.lifecycle.create), a partner tenant's
// MFA trusted for inbound guests, an API client given Google Workspace's
// domain-wide delegation (AUTHORIZE_API_CLIENT_ACCESS). Whoever signs the
// tokens, or holds the client's key, then acts as anyone, second factor
// included (ATT&CK T1484.002).

// federationEvents are the folded event names of such a change.
var federationEvents = []string{
	"setdomainauthentication", "setfederationsettingsondomain", "updatedomainfederationsettings",
	"setdomainfederation", "newfederateddomain", "convertdomaintofederated",
	"idplifecyclecreate", "idplifecycleactivate", "addidentityprovider", "createidentityprovider",
	"addsamlidp", "createsamlidp", "authorizeapiclientaccess",
}

// auditEventKeys are where audit logs name what was done.
var auditEventKeys = []string{"activitydisplayname", "operationname", "eventtype", "eventname", "operation", "activity", "action", "type", "name"}

// privilegeGranted reports whether the payload's audit events hand out
// administrative power (see privilegeGrantEvents) or create an account.
func privilegeGranted(d *doc) bool {
	names := normKey(lowerJoin(d.strs(auditEventKeys...)))
	return firstSubstring(names, privilegeGrantEvents) != "" || containsAnyTerm(names, "adduser", "useraccountcreate", "usercreated", "createuser")
}

// federationChange returns the event that changed how the tenant
// authenticates (see federationEvents), or an inbound cross-tenant trust
// that accepts another tenant's MFA, read anywhere in the payload; "" when
// none did.
func federationChange(d *doc) string {
	for _, s := range d.strs(auditEventKeys...) {
		if containsAnyTerm(normKey(s), federationEvents...) {
			return s
		}
	}
	if strings.Contains(d.compactText(), "crosstenantaccess") {
		if v, ok := d.boolean("ismfaaccepted"); ok && v {
			return "cross-tenant inbound trust accepts the partner tenant's MFA"
		}
	}
	return ""
}
