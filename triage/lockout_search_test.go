package triage

import "testing"

// A log search's lockout alert carries the matching event as "result";
// that is no successful sign-in. Lockouts from the Exchange server's
// ActiveSync endpoint right after the user changed the password are a
// phone holding the old one.
func TestLockoutSearchAfterOwnPasswordChange(t *testing.T) {
	lockout := logSearch("Access - Excessive Account Lockouts - Rule", map[string]any{
		"host": "DC-02", "source": "XmlWinEventLog:Security", "sourcetype": "XmlWinEventLog", "EventCode": "4740",
		"_raw": "<Event><EventID>4740</EventID><Data Name='TargetUserName'>jreyes</Data></Event>",
		"user": "jreyes", "failed_logons_4625_2h": "58", "failed_logon_src_ips": "10.20.2.15",
		"last_password_change_4723": "2025-06-02T13:47:05Z (jreyes changed own password)",
		"iis_activesync_sample":     "POST /Microsoft-Server-ActiveSync/default.eas User=jreyes&DeviceType=iPhone&Cmd=Ping 401",
	})
	noChange := withResult(lockout, map[string]any{"last_password_change_4723": nil})
	checkFires(t, "identity.stale_password_after_change", "suspicious_login", "medium", []fireCase{
		{"lockouts after the user's own change", lockout, true},
		{"lockouts with no change", noChange, false},
	})
	checkFires(t, "identity.brute_force_success", "suspicious_login", "medium", []fireCase{
		{"a lockout is no success", lockout, false},
	})
}

// The event a log search matched says how the sign-in ended: AD FS 1200
// issued a token, 1203 refused one.
func TestSignInOutcomeFromTheMatchedEvent(t *testing.T) {
	for code, want := range map[string]string{"1200": "success", "4624": "success", "1203": "failure", "4625": "failure", "4740": "failure"} {
		raw := logSearch("Identity - sign-in", map[string]any{"EventCode": code, "user": "r.mensah@example.com", "src_ip": "45.153.160.138"})
		if got := readIdentityFields(raw).Result; got != want {
			t.Errorf("EventCode %s: result %q, want %q", code, got, want)
		}
	}
}

// A search that joined the user's own password change names it by its
// Windows event, 4723.
func TestPasswordChangeJoinedByItsEvent(t *testing.T) {
	raw := logSearch("Access - Account Lockout Detected", map[string]any{"EventCode": "4740", "user": "jf",
		"related_4723_time": "2025-06-24T08:57:30Z", "related_4723_subject": "jf"})
	if !readIdentityFields(raw).PasswordChanged {
		t.Error("a joined 4723 event is a password change")
	}
	delete(raw["result"].(map[string]any), "related_4723_time")
	delete(raw["result"].(map[string]any), "related_4723_subject")
	if readIdentityFields(raw).PasswordChanged {
		t.Error("no change was joined")
	}
}
