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
