package triage

import "testing"

// Wrong passwords from the account's own device or network right after
// its password changed are a device holding the old one; the same run
// from a hosting network, against several accounts, or with no change on
// record is not explained.
func TestFailuresAfterTheAccountsOwnPasswordChange(t *testing.T) {
	base := map[string]any{
		"user": "m.brooks@contoso.example", "src_ip": "10.12.4.31", "result": "success",
		"failed_attempts": 42, "client_app": "Exchange ActiveSync",
		"last_password_change": "2025-10-13T08:55:02Z",
	}
	checkFires(t, "identity.stale_password_after_change", "suspicious_login", "medium", []fireCase{
		{"own network after the change", base, true},
		{"no change on record", withFields(base, map[string]any{"last_password_change": nil}), false},
		{"from a hosting network", withFields(base, map[string]any{"src_ip": "45.77.20.9", "asn": "AS20473 Vultr Holdings (hosting)", "client_app": "Browser"}), false},
		{"several accounts tried", withFields(base, map[string]any{"distinct_users_failed": 31}), false},
		{"change minutes before the failures", withFields(base, map[string]any{"timestamp": "2025-10-13T09:20:00Z"}), true},
		{"change two years before the failures", withFields(base, map[string]any{"timestamp": "2025-10-13T09:20:00Z", "last_password_change": "2023-01-09T16:20:00Z"}), false},
	})
}

// The stale-password reading explains the failures, but not past the
// critical-severity guard: only an authorised exercise passes it.
func TestStalePasswordLeavesACriticalAlertOpen(t *testing.T) {
	raw := map[string]any{
		"user": "m.brooks@contoso.example", "src_ip": "10.12.4.31", "result": "success",
		"failed_attempts": 42, "client_app": "Exchange ActiveSync",
		"last_password_change": "2025-10-13T08:55:02Z",
	}
	for sev, wantBenign := range map[string]bool{"medium": true, "critical": false} {
		a := analyze(t, Incident{IncidentType: "suspicious_login", Severity: sev, RawData: raw})
		if got := a.Verdict.Classification == ClassBenign; got != wantBenign {
			t.Errorf("%s: %s, want benign=%v (%s)", sev, a.Verdict.Classification, wantBenign, a.Verdict.Reasoning)
		}
	}
}
