package triage

import (
	"encoding/json"
	"strings"
)

// An intruder holding an administrator's session lowers the bar for the
// accounts they want: users excluded from the conditional access policy
// that requires MFA, the policy switched off or to report-only, a user's
// second factor set to bypass (Duo's "Bypass" status, a policy allowing
// access without 2FA). Administrators do this too, under a change; the
// rules weigh it against the rest of the alert.

// mfaWeakened returns what an administrative change did to weaken
// multi-factor authentication, or "" when the payload shows none.
func mfaWeakened(d *doc) string {
	for _, m := range d.maps("modifiedproperties") {
		md := newDoc(m)
		if !strings.Contains(normKey(md.str("displayname")), "conditionalaccesspolicy") {
			continue
		}
		if why := conditionalAccessLoosened(md.str("oldvalue"), md.str("newvalue")); why != "" {
			return why
		}
	}
	// Duo's administrator log records a user set to bypass as a
	// user_update whose new status is Bypass; elsewhere a "bypass" status
	// can be a mail or proxy policy's.
	if strings.Contains(normKey(lowerJoin(d.strs("action"))), "userupdate") {
		for _, s := range d.scalarStrs("status") {
			if normKey(s) == "bypass" {
				return "a user's second factor was set to bypass"
			}
		}
	}
	if containsAnyTerm(d.compactText(), "allowaccesswithout2fa", "allowaccesswithoutmfa") {
		return "a policy now allows access without a second factor"
	}
	return ""
}

// caPolicy is the part of an Entra conditional access policy that decides
// whom it covers and whether it is enforced.
type caPolicy struct {
	State      string `json:"state"`
	Conditions struct {
		Users struct {
			ExcludeUsers  []string `json:"excludeUsers"`
			ExcludeGroups []string `json:"excludeGroups"`
			ExcludeRoles  []string `json:"excludeRoles"`
		} `json:"users"`
	} `json:"conditions"`
}

// conditionalAccessLoosened compares a conditional access policy before
// and after an update (Entra's audit oldValue and newValue): more
// exclusions, or enforcement switched off, loosen it.
func conditionalAccessLoosened(oldValue, newValue string) string {
	var before, after caPolicy
	if json.Unmarshal([]byte(oldValue), &before) != nil || json.Unmarshal([]byte(newValue), &after) != nil {
		return ""
	}
	excluded := func(p caPolicy) int {
		u := p.Conditions.Users
		return len(u.ExcludeUsers) + len(u.ExcludeGroups) + len(u.ExcludeRoles)
	}
	switch {
	case excluded(after) > excluded(before):
		return "accounts were excluded from a conditional access policy"
	case strings.EqualFold(before.State, "enabled") && after.State != "" && !strings.EqualFold(after.State, "enabled"):
		return "a conditional access policy was switched to " + after.State
	}
	return ""
}
