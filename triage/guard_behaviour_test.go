package triage

import "testing"

// A process that did something hostile is not called benign on evidence
// about who ran it; only a rule that resolves the red flags may do that.
func TestGuardBehaviourKeepsHostileProcessesOutOfBenign(t *testing.T) {
	var hostile, quiet Fields
	hostile.Endpoint.Behaviour.Hostile = "reverse shell"
	tests := []struct {
		name     string
		f        Fields
		resolved bool
		class    string
		want     string
	}{
		{"hostile, unresolved", hostile, false, ClassBenign, ClassSuspicious},
		{"hostile, resolved", hostile, true, ClassBenign, ClassBenign},
		{"quiet", quiet, false, ClassBenign, ClassBenign},
		{"hostile, already malicious", hostile, false, ClassMalicious, ClassMalicious},
	}
	for _, tc := range tests {
		ev := &evidence{resolved: tc.resolved}
		if got := guardBehaviour(tc.f, ev, tc.class); got != tc.want {
			t.Errorf("%s: %s, want %s", tc.name, got, tc.want)
		}
	}
}
