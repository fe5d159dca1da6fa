package triage

import "testing"

// Duo is asked after the application accepted the password: a denial by
// its anonymous-network or location policy refused a correct password,
// while an unanswered or cancelled push says nothing about it.
func TestDuoPolicyDenialFollowsAcceptedPassword(t *testing.T) {
	duo := func(reason string) map[string]any {
		return map[string]any{
			"access_device": map[string]any{"ip": "185.245.87.114", "browser": "Chrome", "os": "Mac OS X"},
			"application":   map[string]any{"name": "Okta SSO"},
			"event_type":    "authentication", "factor": "not_available", "reason": reason, "result": "denied",
			"user": map[string]any{"name": "c.ferreira"}, "email": "c.ferreira@lakeshore-cu.org",
		}
	}
	for reason, want := range map[string]bool{"anonymous_ip": true, "location_restricted": true, "no_response": false, "user_cancelled": false} {
		if got := identityOf(duo(reason)).PasswordAccepted; got != want {
			t.Errorf("Duo denial for %s: password accepted %v, want %v", reason, got, want)
		}
	}
}
