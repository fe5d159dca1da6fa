package triage

import "testing"

// Mail from an awareness platform's published sending range, its
// envelope domain or the admins' simulation route is a sanctioned test
// and is closed, however phishy the lure; the same lure without that
// infrastructure, or with only headers the sender writes, is not.
func TestPhishingSimulationInfrastructureClosesTheLure(t *testing.T) {
	base := map[string]any{
		"classification": "phish",
		"threatsInfoMap": []any{map[string]any{"classification": "phish", "threat": "https://mailbox-quota-alerts.com/k7/login", "threatStatus": "active"}},
		"fromAddress":    []any{"it-helpdesk@mailbox-quota-alerts.com"},
		"subject":        "Action required: your mailbox is 98% full",
		"recipient":      []any{"a.user@contoso.com"},
	}
	lure := func(extra map[string]any) map[string]any { return withFields(base, extra) }
	tests := []closeCase{
		{"published sending address", lure(map[string]any{"senderIP": "147.160.167.14"}), true},
		{"simulation policy route", lure(map[string]any{"policyRoutes": []any{"default_inbound", "knowbe4_phishsim_allow"}}), true},
		{"envelope on the platform's domain", lure(map[string]any{"returnPath": "bounce-4471@psm.knowbe4.com"}), true},
		{"envelope forged, SPF failed", lure(map[string]any{"returnPath": "bounce@psm.knowbe4.com", "spf": "fail"}), false},
		{"only a header the sender writes", lure(map[string]any{"xmailer": "KnowBe4 PSM", "senderIP": "185.220.101.9"}), false},
		{"no infrastructure", lure(map[string]any{"senderIP": "185.220.101.9"}), false},
	}
	for _, tt := range tests {
		f := normalize(Incident{IncidentType: "phishing", RawData: tt.raw}, Indicators{})
		if f.Email.SimulationInfrastructure != tt.benign {
			t.Errorf("%s: simulation infrastructure %v, want %v", tt.name, f.Email.SimulationInfrastructure, tt.benign)
		}
	}
	checkClosed(t, "phishing", tests)
}

// The sending ranges describe mail: a sign-in from the same address is not
// a security test.
func TestSimulationRangeMarksOnlyMail(t *testing.T) {
	signIn := map[string]any{"userPrincipalName": "a.user@contoso.com", "ipAddress": "147.160.167.14", "clientIP": "147.160.167.14", "status": map[string]any{"errorCode": 0}}
	if f := normalize(Incident{IncidentType: "suspicious_login", RawData: signIn}, Indicators{}); f.Alert.SecurityTesting {
		t.Errorf("a sign-in from a simulation platform's mail range was read as a security test: %+v", f.Alert)
	}
}
