package triage

import (
	"regexp"
	"strings"
)

// A run of wrong passwords right after the account's password was
// changed is, far more often than an attack, a device or service still
// holding the old one: a phone's mail app, a mapped drive, a scheduled
// job, a scan-to-folder profile. The payload records the change as a
// "last password change" or pwdLastSet field, a correlated 4723/4724
// event, or in words.

var passwordChangedRe = regexp.MustCompile(`password (was |had been )?(changed|reset|rotated)|(after|following|since) (a |the |an |her |his |their |its )?(self-service |scheduled |vault |pam )?password (change|reset|rotation)|changed (her|his|their|its) password`)

// passwordChangeKeys are fields (folded) that record when the account's
// password last changed.
var passwordChangeKeys = []string{"lastpasswordchange", "passwordlastchanged", "passwordlastset", "pwdlastset", "passwordchangedat", "lastpasswordreset", "passwordchanged"}

// passwordChanged reports whether the sign-in payload records a change of
// the account's own password: a field for it, a correlated password
// change event, or the words.
func passwordChanged(cur *doc) bool {
	if cur.has(passwordChangeKeys...) {
		return true
	}
	for _, e := range cur.entries {
		if e.val != nil && (strings.Contains(e.key, "passwordchange") || strings.Contains(e.key, "passwordrotation")) {
			return true
		}
	}
	return passwordChangedRe.MatchString(cur.text)
}
