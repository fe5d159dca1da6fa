package triage

import "testing"

// Google's login audit lists the challenge methods a sign-in passed; a
// second-factor method among them is a second factor whatever the export
// says in is_second_factor, and a password alone is single-factor.
func TestGoogleLoginChallengeMethodsDecideTheFactor(t *testing.T) {
	login := func(methods []any, second bool) map[string]any {
		return map[string]any{
			"kind":      "admin#reports#activity",
			"actor":     map[string]any{"email": "ana@example.com"},
			"ipAddress": "203.0.113.9",
			"events": []any{map[string]any{"type": "login", "name": "login_success", "parameters": []any{
				map[string]any{"name": "login_type", "value": "google_password"},
				map[string]any{"name": "login_challenge_method", "multiValue": methods},
				map[string]any{"name": "is_suspicious", "boolValue": true},
				map[string]any{"name": "is_second_factor", "boolValue": second},
			}}},
		}
	}
	tests := []struct {
		name         string
		raw          map[string]any
		mfa          string
		singleFactor bool
	}{
		{"password and security key", login([]any{"password", "security_key"}, false), "passed", false},
		{"passkey", login([]any{"passkey"}, false), "passed", false},
		{"password and authenticator code", login([]any{"password", "google_authenticator"}, false), "passed", false},
		{"password and prompt, flagged second", login([]any{"password", "google_prompt"}, true), "passed", false},
		{"password alone", login([]any{"password"}, false), "not_required", true},
	}
	for _, tt := range tests {
		id := normalize(Incident{IncidentType: "suspicious_login", RawData: tt.raw}, Indicators{}).Identity
		if id.MFA != tt.mfa || id.SingleFactor != tt.singleFactor {
			t.Errorf("%s: mfa %q, single factor %v; want %q, %v", tt.name, id.MFA, id.SingleFactor, tt.mfa, tt.singleFactor)
		}
	}
}

// TestGoogleChallengeMethodsAloneDecideTheFactor holds that a login audit
// entry without is_second_factor is judged by its challenge methods: a
// password alone is single-factor, a password and a key is not.
func TestGoogleChallengeMethodsAloneDecideTheFactor(t *testing.T) {
	login := func(methods []any) IdentityFields {
		raw := map[string]any{"kind": "admin#reports#activity", "actor": map[string]any{"email": "m.c@example.com"}, "ipAddress": "146.70.113.58",
			"events": []any{map[string]any{"type": "login", "name": "login_success", "parameters": []any{
				map[string]any{"name": "login_type", "value": "google_password"},
				map[string]any{"name": "login_challenge_method", "multiValue": methods},
				map[string]any{"name": "is_suspicious", "boolValue": true}}}}}
		return identityOf(raw)
	}
	if f := login([]any{"password"}); !f.SingleFactor || f.MFA != "not_required" {
		t.Errorf("password alone: single factor %v, mfa %q", f.SingleFactor, f.MFA)
	}
	if f := login([]any{"password", "security_key"}); f.SingleFactor {
		t.Error("a password and a security key read as a single factor")
	}
}
