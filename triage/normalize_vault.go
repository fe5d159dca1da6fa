package triage

import (
	"strings"
	"time"
)

// A privileged-access vault (CyberArk, Delinea, BeyondTrust) changes the
// password of each account it manages and hands the new one out only on
// checkout. When a managed account logs on and nobody has retrieved its
// password since the last change, whoever used it got the password, or a
// ticket made with it, from outside the vault. The one innocent reading
// is a failed rotation: a copy checked out before it may still work.

// vaultBypass reports a vault-managed account used without a checkout
// since its password last changed, as the two times the payload gives, or
// "" when the payload does not give both or the checkout is the later.
func vaultBypass(d *doc) string {
	retrieved, ok := latestTimeUnder(d, "lastpasswordretrieval", "lastretrieval", "lastretrievebyanyuser", "lastretrieved", "lastcheckout", "lastpasswordcheckout")
	if !ok {
		return ""
	}
	changed, ok := latestTimeUnder(d, "lastpasswordchange", "passwordlastchanged", "lastpasswordrotation", "lastrotation")
	if !ok || !retrieved.Before(changed) {
		return ""
	}
	return "last checkout " + retrieved.UTC().Format(time.RFC3339) + ", password changed " + changed.UTC().Format(time.RFC3339)
}

// vaultRotationFailed reports a rotation status that says the vault's
// last password change failed.
func vaultRotationFailed(d *doc) bool {
	for _, e := range d.entries {
		if !strings.Contains(e.key, "rotation") {
			continue
		}
		for _, s := range appendLeafStrings(nil, e.val, 0) {
			if strings.Contains(strings.ToLower(s), "fail") {
				return true
			}
		}
	}
	return false
}

// latestTimeUnder returns the latest time (see instant: text or Unix
// seconds or milliseconds) stored under any of names, or in a member of
// an object stored there: a checkout recorded as {"by", "time"} gives its
// time.
func latestTimeUnder(d *doc, names ...string) (time.Time, bool) {
	var latest time.Time
	found := false
	note := func(v any) {
		if t, ok := instant(v); ok && (!found || t.After(latest)) {
			latest, found = t, true
		}
	}
	for _, v := range d.values(names...) {
		if m, ok := v.(map[string]any); ok {
			for _, member := range m {
				note(member)
			}
			continue
		}
		note(v)
	}
	return latest, found
}
