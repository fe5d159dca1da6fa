package triage

import (
	"maps"
	"strings"
	"testing"
)

// oneLoginEvents wraps OneLogin events the way its Events API answers.
func oneLoginEvents(events ...map[string]any) map[string]any {
	list := make([]any, len(events))
	for i, e := range events {
		list[i] = e
	}
	return map[string]any{"status": map[string]any{"error": false, "code": 200}, "data": list}
}

func oneLoginLogin(typeID int, risk float64, reasons, device string) map[string]any {
	return map[string]any{
		"id": 771203, "created_at": "2025-09-03T08:14:02Z", "event_type_id": typeID,
		"user_id": 4410, "user_name": "Mara Quint", "login_name": "m.quint@corvane.example",
		"actor_user_name": "Mara Quint", "ipaddr": "203.0.113.40",
		"risk_score": risk, "risk_reasons": reasons, "otp_device_name": device,
	}
}

func TestOneLoginEventIsReadInTheCommonNames(t *testing.T) {
	f := readIdentityFields(signInView(oneLoginEvents(oneLoginLogin(5, 82, "Unusual location; New device", "OneLogin Protect"))))
	if f.User != "m.quint@corvane.example" || f.SourceIP != "203.0.113.40" || f.Result != "success" || f.MFA != "passed" || f.RiskLevel != "high" {
		t.Fatalf("OneLogin login read as %+v", f)
	}
	if !strings.Contains(f.Event, "user_logged_into_onelogin") {
		t.Fatalf("event = %q, want OneLogin's sign-in event", f.Event)
	}
	failed := readIdentityFields(signInView(oneLoginEvents(oneLoginLogin(6, 8, "", ""))))
	if failed.Result != "failure" || failed.MFA == "passed" || failed.RiskLevel != "low" {
		t.Fatalf("failed OneLogin authentication read as %+v", failed)
	}
	// OneLogin's "high" bucket (51-75) is what other providers call medium.
	if got := readIdentityFields(oneLoginLogin(5, 60, "", "")).RiskLevel; got != "medium" {
		t.Fatalf("risk score 60 read as %q, want medium", got)
	}
}

func TestOneLoginRoutineLoginWithItsSecondFactorIsBenign(t *testing.T) {
	for _, tc := range []struct {
		name  string
		login map[string]any
		want  string
	}{
		{"low score, OTP used", oneLoginLogin(5, 6, "", "OneLogin Protect"), ClassBenign},
		{"very high score from an anonymising proxy", oneLoginLogin(5, 88, "Anonymizing proxy; New device; Unusual location", "OneLogin Protect"), ClassSuspicious},
	} {
		a := analyze(t, Incident{IncidentType: "suspicious_login", Severity: "low", RawData: oneLoginEvents(tc.login)})
		if a.Verdict.Classification != tc.want {
			t.Errorf("%s: %s, want %s (%s)", tc.name, a.Verdict.Classification, tc.want, a.Verdict.Reasoning)
		}
	}
}

func TestASignInStatingMFAWasUsedPassedIt(t *testing.T) {
	raw := map[string]any{
		"event_type": "sso_auth", "success": true, "mfa": true, "mfa_meta": map[string]any{"type": "webauthn"},
		"client_ip": "198.51.100.12", "initiated_by": map[string]any{"username": "t.ibsen"},
		"organization": "5f3a1c7e9b2d4e6a8c0f1b3d", "ip_enrichment": map[string]any{"isp": "Telia Company"},
	}
	f := readIdentityFields(raw)
	if f.MFA != "passed" || f.ISP != "Telia Company" {
		t.Fatalf("sign-in read with MFA %q and ISP %q", f.MFA, f.ISP)
	}
	raw["mfa"] = false
	if f := readIdentityFields(raw); f.MFA == "passed" {
		t.Fatal("a sign-in stating mfa false was read as MFA passed")
	}
}

// OneLogin's events, PingOne Protect's risk evaluations, Duo's
// authentication logs and Trust Monitor events, and Okta's session
// roaming detections are sign-ins whatever incident type the caller gave
// them; Okta's behaviours beside a client device had read as an EDR's.
func TestIdentityProviderExportsAreReadAsSignIns(t *testing.T) {
	for name, raw := range map[string]map[string]any{
		"OneLogin events":            oneLoginEvents(withoutKeys(oneLoginLogin(6, 0, "", ""), "login_name", "otp_device_name")),
		"PingOne Protect evaluation": {"riskPolicySet": map[string]any{"name": "Default Risk Policy"}, "result": map[string]any{"level": "HIGH", "score": 74}},
		"Duo authentication log": {"response": map[string]any{"authlogs": []any{map[string]any{
			"access_device": map[string]any{"ip": "198.51.100.7"}, "factor": "duo_push", "result": "success"}}}},
		"Duo Trust Monitor event": {"events": []any{map[string]any{"surfaced_auth": map[string]any{"factor": "verified_duo_push"}}}},
		"Okta session roaming": {"eventType": "security.session.detect_client_roaming", "actor": map[string]any{"alternateId": "a@contoso.com"},
			"client": map[string]any{"device": "Computer", "ipAddress": "45.77.1.9"}, "outcome": map[string]any{"result": "SUCCESS"},
			"debugContext": map[string]any{"debugData": map[string]any{"behaviors": "{New IP=POSITIVE, New Device=NEGATIVE}"}}},
	} {
		if shape, _ := detectShape(raw, newDoc(raw)); shape != "identity" {
			t.Errorf("%s read as shape %q, want identity", name, shape)
		}
	}
}

// When the owner signs in again after another session changed the
// account, the session that made the change is the one judged.
func TestChainJudgesTheSessionThatTamperedNotTheOwnersLaterSignIn(t *testing.T) {
	activity := func(at, app, name, ip string) map[string]any {
		return map[string]any{
			"id":        map[string]any{"time": at, "applicationName": app},
			"actor":     map[string]any{"email": "a.whit@brightpath.example"},
			"ipAddress": ip,
			"events":    []any{map[string]any{"name": name}},
		}
	}
	raw := map[string]any{"items": []any{
		activity("2025-04-08T14:02:37Z", "login", "login_success", "73.22.140.91"),
		activity("2025-04-08T15:10:52Z", "login", "login_success", "102.89.34.117"),
		activity("2025-04-08T15:14:06Z", "user_accounts", "recovery_phone_edit", "102.89.34.117"),
		activity("2025-04-08T15:16:22Z", "user_accounts", "2sv_disable", "102.89.34.117"),
		activity("2025-04-08T15:31:05Z", "login", "login_success", "73.22.140.91"),
	}}
	f := readIdentityFields(signInView(raw))
	if f.SourceIP != "102.89.34.117" || !f.AccountTamper {
		t.Fatalf("chain judged the sign-in from %s (account changed: %v), want the session from 102.89.34.117 that changed it", f.SourceIP, f.AccountTamper)
	}
}

// withoutKeys returns a copy of m without keys.
func withoutKeys(m map[string]any, keys ...string) map[string]any {
	out := maps.Clone(m)
	for _, k := range keys {
		delete(out, k)
	}
	return out
}
