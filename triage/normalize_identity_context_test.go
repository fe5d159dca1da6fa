package triage

import "testing"

func TestCorrelatedContextIsReadByWhatItsKeysMean(t *testing.T) {
	cases := []struct {
		name           string
		raw            map[string]any
		users, failed  int
		tamper, payout bool
	}{
		{"auth0-style correlated block", map[string]any{
			"correlated":  map[string]any{"same_ip_last_60m": map[string]any{"distinct_usernames": 7991.0, "fp": 12.0}},
			"after_login": []any{map[string]any{"description": "Success Change Email"}},
		}, 7991, 0, true, false},
		{"camelCase summary with succeeded subjects", map[string]any{
			"summary":      map[string]any{"distinctSubjectsFailed": 412.0, "distinctSubjectsSucceeded": 1.0},
			"next_actions": []any{"Workday: view payment elections", "Workday: change payment elections"},
		}, 412, 0, false, true},
		{"failure total and tried accounts", map[string]any{
			"context": map[string]any{"failed_attempts_total": 36.0, "accounts_tried": 9.0, "failed_logins_usual": 50.0},
		}, 9, 36, false, false},
		{"a viewed payment page is not a change", map[string]any{
			"followed_by": []any{"payroll: view direct deposit"},
			"user_agents": map[string]any{"unique_user_agents": 4.0},
		}, 0, 0, false, false},
	}
	for _, c := range cases {
		var f IdentityFields
		readCorrelatedContext(&f, c.raw)
		if f.TargetedUsers != c.users || f.FailedAttempts != c.failed || f.AccountTamper != c.tamper || f.PayoutChange != c.payout {
			t.Errorf("%s: users=%d failed=%d tamper=%v payout=%v, want %d %d %v %v", c.name, f.TargetedUsers, f.FailedAttempts, f.AccountTamper, f.PayoutChange, c.users, c.failed, c.tamper, c.payout)
		}
	}
}

func TestOwnerReportsAndTokenAnomaliesAcrossProviders(t *testing.T) {
	for _, raw := range []map[string]any{
		{"eventType": "user.account.report_suspicious_activity_by_enduser"},
		{"riskEventType": "userReportedSuspiciousActivity"},
	} {
		var f IdentityFields
		readReportsAndTokens(&f, newDoc(raw))
		if !f.UserReported {
			t.Errorf("%v: the owner's report was not read", raw)
		}
	}
	for _, raw := range []map[string]any{
		{"riskEventType": "anomalousToken"},
		{"riskEventTypes_v2": []any{"tokenIssuerAnomaly"}},
	} {
		var f IdentityFields
		readReportsAndTokens(&f, newDoc(raw))
		if !f.TokenAnomaly {
			t.Errorf("%v: the token anomaly was not read", raw)
		}
	}
}

func TestCorrelatedContextLeavesOrdinaryCountsAndWordsAlone(t *testing.T) {
	var f IdentityFields
	readCorrelatedContext(&f, map[string]any{
		"tenant":      map[string]any{"distinct_accounts_in_tenant": 12000.0, "active_users": 800.0},
		"user_stats":  map[string]any{"failed_logins_30d": 12.0},
		"after_login": []any{"Workday: view bank account (address verified)", "Outlook: new email received"},
	})
	if f.TargetedUsers != 0 || f.FailedAttempts != 0 || f.PayoutChange || f.AccountTamper {
		t.Errorf("ordinary context read as an attack: %+v", f)
	}
}

func TestManyOrdinaryUsersBehindOneAddressAreNotSprayed(t *testing.T) {
	var f IdentityFields
	readCorrelatedContext(&f, map[string]any{"ip_context": map[string]any{"distinct_users_24h": 340.0, "successful_signins": 2900.0}})
	if f.TargetedUsers != 0 {
		t.Errorf("an office address's users read as %d accounts sprayed", f.TargetedUsers)
	}
}

func TestOwnerReportInFailureDetailsButNotInOrdinaryReasons(t *testing.T) {
	var f IdentityFields
	readReportsAndTokens(&f, newDoc(map[string]any{"status": map[string]any{"additionalDetails": "Suspicious activity reported by the user in Microsoft Authenticator"}}))
	if !f.UserReported {
		t.Error("the report in the sign-in's failure details was not read")
	}
	f = IdentityFields{}
	readReportsAndTokens(&f, newDoc(map[string]any{"reason": "Password reset by end user"}))
	if f.UserReported {
		t.Error("a self-service reset read as a report of suspicious activity")
	}
}
