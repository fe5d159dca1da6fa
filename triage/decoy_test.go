package triage

import "testing"

// Deception bait named by the alert (a honey user, a honeytoken, a canary
// token) is read and keeps the alert open; a sentence denying it, or an
// authorised test, is not a touch.
func TestDecoyTouchedIsReadAndWeighed(t *testing.T) {
	tests := map[string]string{
		"Honey User Authentication: a honey user account was used to attempt authentication": "honey user",
		"Honeytoken activity (LDAP authentication)":                                          "honeytoken",
		"Canarytoken triggered: AWS API key used from 45.88.97.214":                          "canarytoken",
		"Password spray against 41 accounts":                                                 "",
	}
	for title, want := range tests {
		a := normalize(Incident{IncidentType: "alert", RawData: map[string]any{"title": title}}, Indicators{}).Alert
		if a.Decoy != want {
			t.Errorf("%q: decoy %q, want %q", title, a.Decoy, want)
		}
	}
	touched := AlertFields{Decoy: "honey user"}
	if got := firedRules(kindGeneric, Fields{Alert: touched}); !got["alert.decoy_touched"] {
		t.Errorf("a touched decoy fired %v", got)
	}
	touched.SecurityTesting = true
	if got := firedRules(kindGeneric, Fields{Alert: touched}); got["alert.decoy_touched"] {
		t.Errorf("an authorised test touching a decoy fired %v", got)
	}
}
