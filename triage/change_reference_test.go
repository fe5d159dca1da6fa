package triage

import "testing"

// A change-management number in the alert (ServiceNow, Jira, a change
// request named with its number) is read; an RFC standard's number, a
// bare "change" or a ticket field saying there is none is not.
func TestChangeReference(t *testing.T) {
	for text, want := range map[string]string{
		"Robocopy /MIR under CHG0041877, window 22:00-02:00": "chg0041877",
		"Load test run for CHG-7720 against staging":         "chg-7720",
		"Per change request 88120 approved by CAB":           "change request 88120",
		"Message/rfc822 attachment with nested HTML":         "",
		"Password change requested by the user":              "",
		"change_ticket: none; change window: no match":       "",
	} {
		got := changeReference(newDoc(map[string]any{"comment": text}))
		if got != want {
			t.Errorf("%q: got %q, want %q", text, got, want)
		}
	}
}

// A change-record field or object names a record even without a ticket
// number (a pull request), unless it says there is none; an MFA change
// made under one is not called weakening with no record behind it.
func TestChangeRecordField(t *testing.T) {
	tests := []struct {
		name string
		raw  map[string]any
		want string
	}{
		{"pull request in a change record", map[string]any{"changeRecord": map[string]any{"pullRequest": "it/entra-ca-policies#214 Exclude kiosks"}}, "it/entra-ca-policies#214 Exclude kiosks"},
		{"ticket text", map[string]any{"change_request": "RITM ticket approved by CAB"}, "RITM ticket approved by CAB"},
		{"none found", map[string]any{"change_record": "none found"}, ""},
		{"not approved", map[string]any{"changeRequest": map[string]any{"status": "not approved"}}, ""},
		{"a pull request outside a change record", map[string]any{"pull_request": map[string]any{"title": "bump deps"}}, ""},
	}
	for _, tt := range tests {
		if got := changeReference(newDoc(tt.raw)); got != tt.want {
			t.Errorf("%s: got %q, want %q", tt.name, got, tt.want)
		}
	}
	weakened := AlertFields{MFAWeakened: "accounts were excluded from a conditional access policy"}
	if got := firedRules(kindGeneric, Fields{Alert: weakened}); !got["alert.mfa_weakened"] {
		t.Errorf("MFA weakened with no record fired %v", got)
	}
	weakened.ChangeReference = "it/entra-ca-policies#214 Exclude kiosks"
	if got := firedRules(kindGeneric, Fields{Alert: weakened}); got["alert.mfa_weakened"] {
		t.Errorf("MFA weakened under a pull request fired %v", got)
	}
}

// The values that say there is no change record are the same for the
// cloud reader's no-record flag as for the change reference.
func TestNoChangeRecordValues(t *testing.T) {
	for v, want := range map[string]bool{"N/A": true, "none found": true, "not required": true, "rejected by CAB": true, "CHG0041877": false, "PR #214 merged": false} {
		if got := noChangeRecord(newDoc(map[string]any{"change_ticket": v})); got != want {
			t.Errorf("%q: no record %v, want %v", v, got, want)
		}
	}
}

// A change number in a previous sign-in or the account's history was
// that event's change, not the alert's: a break-glass account's last
// sanctioned use does not vouch for tonight's.
func TestAnEarlierEventsChangeIsNotThisAlerts(t *testing.T) {
	for _, raw := range []map[string]any{
		{"lastPriorSignIn": map[string]any{"note": "Semi-annual break-glass validation, CHG0039921"}},
		{"previous_login": map[string]any{"comment": "CHG0039921"}},
		{"accountHistory": []any{map[string]any{"changeRecord": "CHG0039921"}}},
	} {
		if got := changeReference(newDoc(raw)); got != "" {
			t.Errorf("%v: read change %q", raw, got)
		}
	}
	if got := changeReference(newDoc(map[string]any{"note": "validation under CHG0039921", "lastPriorSignIn": map[string]any{"ip": "203.0.113.10"}})); got != "chg0039921" {
		t.Errorf("the alert's own change was not read: %q", got)
	}
}
