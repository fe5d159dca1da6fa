package triage

import "testing"

// TestAnApprovalFromElsewhereIsNotTheProviderVouching holds that a second
// factor approved in another country than the sign-in earns no credit for
// the provider's calm: the provider rated the session low because MFA
// passed, and the MFA is what went wrong.
func TestAnApprovalFromElsewhereIsNotTheProviderVouching(t *testing.T) {
	calm := IdentityFields{RiskLevel: "low", MFA: "passed", Result: "success", Country: "Netherlands"}
	if !firedRules(kindLogin, Fields{Identity: calm})["identity.provider_not_suspicious"] {
		t.Fatal("a calm provider and a passed second factor should still count for the sign-in")
	}
	elsewhere := calm
	elsewhere.ApproverElsewhere = true
	got := firedRules(kindLogin, Fields{Identity: elsewhere})
	if got["identity.provider_not_suspicious"] || !got["identity.approval_from_another_country"] {
		t.Errorf("approval elsewhere fired %v", got)
	}
}
