package triage

import "testing"

// A failed Entra sign-in that got past the password is read from its error
// code or its authentication steps; a wrong password is not. From Tor or a
// rentable server it keeps the alert open: the password is known to
// someone, whatever the wording says.
func TestPasswordAcceptedFromAnonymizerKeepsTheSignInOpen(t *testing.T) {
	signIn := func(code float64, steps ...any) map[string]any {
		return map[string]any{
			"userPrincipalName": "a.user@contoso.example", "ipAddress": "185.220.101.47",
			"status": map[string]any{"errorCode": code}, "authenticationDetails": steps,
		}
	}
	passwordStep := func(ok bool, detail string) map[string]any {
		return map[string]any{"authenticationMethod": "Password", "succeeded": ok, "authenticationStepResultDetail": detail}
	}
	tests := []struct {
		name     string
		raw      map[string]any
		accepted bool
	}{
		{"blocked by Conditional Access", signIn(53003), true},
		{"MFA required, password step succeeded", signIn(50074, passwordStep(true, "Correct password")), true},
		{"other failure, password step says correct", signIn(50140, passwordStep(false, "Correct password")), true},
		{"wrong password", signIn(50126, passwordStep(false, "Invalid username or password or Invalid on-premise username or password.")), false},
		{"success", signIn(0, passwordStep(true, "Correct password")), false},
	}
	for _, tt := range tests {
		id := normalize(Incident{IncidentType: "suspicious_login", RawData: tt.raw}, Indicators{}).Identity
		if id.PasswordAccepted != tt.accepted {
			t.Errorf("%s: password accepted %v, want %v", tt.name, id.PasswordAccepted, tt.accepted)
		}
	}

	tor := IdentityFields{Result: "failure", PasswordAccepted: true, Tor: true, Anonymizer: true, SourceIP: "185.220.101.47"}
	got := firedRules(kindLogin, Fields{Identity: tor})
	if !got["identity.password_accepted_from_anonymizer"] {
		t.Errorf("password accepted from Tor fired %v", got)
	}
	office := IdentityFields{Result: "failure", PasswordAccepted: true, SourceIP: "198.51.100.7"}
	got = firedRules(kindLogin, Fields{Identity: office})
	if got["identity.password_accepted_from_anonymizer"] {
		t.Errorf("password accepted from an ordinary network fired %v", got)
	}

	ev := &evidence{signals: []signal{{weight: 0.15}}, keptOpen: true}
	if to := guardCritical(Fields{Severity: 2}, ev, ClassBenign); to != ClassSuspicious {
		t.Errorf("an alert a rule keeps open was closed: %s", to)
	}
	ev.resolved = true
	if to := guardCritical(Fields{Severity: 2}, ev, ClassBenign); to != ClassBenign {
		t.Errorf("a resolved alert was kept open: %s", to)
	}
}
