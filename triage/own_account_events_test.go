package triage

import "testing"

// Google's login audit and OneLogin's events name the user's own password
// change and second-factor enrolment in words of their own; an
// administrator changing another user's password is not self-service.
func TestOwnAccountEventsAreSelfService(t *testing.T) {
	google := func(name string) map[string]any {
		return map[string]any{
			"kind":      "admin#reports#activity",
			"id":        map[string]any{"applicationName": "login", "time": "2026-11-20T02:14:09.331Z"},
			"actor":     map[string]any{"email": "a.chen@harborviewschools.org"},
			"events":    []any{map[string]any{"type": "password_change", "name": name}},
			"ipAddress": "73.221.40.118",
		}
	}
	oneLogin := func(actor float64) map[string]any {
		return map[string]any{"id": 99812734501.0, "event_type_id": 11.0, "user_id": 61029384.0, "actor_user_id": actor,
			"user_name": "Grace Whitaker", "ipaddr": "198.51.100.61", "risk_score": 4.0}
	}
	for name, c := range map[string]struct {
		raw  map[string]any
		want bool
	}{
		"google password_edit":    {google("password_edit"), true},
		"google 2sv_enroll":       {google("2sv_enroll"), true},
		"google login_success":    {google("login_success"), false},
		"onelogin own change":     {oneLogin(61029384), true},
		"onelogin admin's change": {oneLogin(50000001), false},
	} {
		if got := identityOf(c.raw).SelfService; got != c.want {
			t.Errorf("%s: self-service %v, want %v", name, got, c.want)
		}
	}
	cookie := google("user_signed_out_due_to_suspicious_session_cookie")
	if !identityOf(cookie).TokenAnomaly {
		t.Error("Google's sign-out over a suspicious session cookie is not read as a token anomaly")
	}
}
