package triage

import (
	"regexp"
	"strings"
	"time"
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

// recentChange is how long before the sign-in a recorded password change
// still explains wrong passwords: devices pick up a new password within
// days, not months.
const recentChange = 30 * 24 * time.Hour

// changedLongBefore reports a recorded last-change time more than
// recentChange before the sign-in: a password unchanged for two years
// explains nothing.
func changedLongBefore(cur *doc) bool {
	at, ok := eventTime(cur)
	if !ok {
		return false
	}
	for _, v := range cur.values(passwordChangeKeys...) {
		if s, isText := v.(string); isText {
			if changed, ok := parseTime(s); ok && at.Sub(changed) > recentChange {
				return true
			}
		}
	}
	return false
}

// passwordChanged reports whether the sign-in payload records a change of
// the account's own password: a field for it, a correlated password
// change event, or the words.
func passwordChanged(cur *doc) bool {
	if cur.has(passwordChangeKeys...) {
		return !changedLongBefore(cur)
	}
	for _, e := range cur.entries {
		// Searches name what they joined by its event: Windows 4723 is a
		// user changing their own password, 4724 a reset by someone else.
		if e.val != nil && (strings.Contains(e.key, "passwordchange") || strings.Contains(e.key, "passwordrotation") || strings.Contains(e.key, "4723") || strings.Contains(e.key, "4724")) {
			return true
		}
	}
	return passwordChangedRe.MatchString(cur.text)
}
