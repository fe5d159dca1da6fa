package triage

import "testing"

// The findings an analyst never closes on wording alone keep the alert
// open: a web server starting a shell, an MFA exclusion with no change
// behind it, a password accepted from Tor, touched deception bait.
func TestRedFlagsThatKeepTheAlertOpen(t *testing.T) {
	want := setOf("endpoint.web_server_spawns_shell", "alert.mfa_weakened", "identity.password_accepted_from_anonymizer", "alert.decoy_touched")
	for _, r := range BuiltinRules().Rules() {
		if want[r.ID] != r.KeepsOpen {
			t.Errorf("%s: keeps open %v", r.ID, r.KeepsOpen)
		}
	}
	shell := Fields{Endpoint: EndpointFields{Parent: "java", Process: "bash", CommandLine: "bash -c id"}}
	hits := BuiltinRules().evaluate(kindMalware, shell)
	kept := false
	for _, h := range hits {
		kept = kept || h.rule.KeepsOpen
	}
	if !kept {
		t.Errorf("a shell under a web server fired no rule that keeps it open")
	}
}
