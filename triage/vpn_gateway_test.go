package triage

import "testing"

// FortiGate SSL VPN logs forwarded as a list fold into one sign-in: the
// tunnel that came up is the focus, the refused logins before it from the
// same /24 count the accounts tried, and a gateway's "permission denied"
// is a refused login, not a refused second factor.
func TestFortiGateVPNEventsFoldIntoOneSignIn(t *testing.T) {
	event := func(action, user, ip, reason string) map[string]any {
		return map[string]any{"logid": "0101039426", "type": "event", "subtype": "vpn", "action": action,
			"tunneltype": "ssl-web", "remip": ip, "user": user, "reason": reason}
	}
	var logs []any
	for i, u := range []string{"admin", "administrator", "test", "vpn", "backup"} {
		logs = append(logs, event("ssl-login-fail", u, "194.169.175."+string(rune('2'+i))+"0", "sslvpn_login_permission_denied"))
	}
	logs = append(logs, event("tunnel-up", "backup", "194.169.175.31", "tunnel established"))
	f := normalize(Incident{IncidentType: "unauthorized_access", RawData: map[string]any{"triggername": "SSL VPN login after failures", "logs": logs}}, Indicators{})
	id := f.Identity
	if f.Format != "fortigate_vpn" || id.Result != "success" || id.User != "backup" || id.SourceIP != "194.169.175.31" {
		t.Fatalf("format %q, focus %+v", f.Format, id)
	}
	if id.TargetedUsers != 5 || id.FailedAttempts != 1 || id.PushDenied != 0 {
		t.Errorf("targeted %d, failed %d, pushes denied %d", id.TargetedUsers, id.FailedAttempts, id.PushDenied)
	}
	if got := firedRules(kindLogin, f); !got["identity.spray_then_success"] {
		t.Errorf("spray then tunnel up fired %v", got)
	}

	mistyped := []any{event("ssl-login-fail", "j.roe", "198.51.100.8", "sslvpn_login_bad_password"), event("tunnel-up", "j.roe", "198.51.100.8", "tunnel established")}
	id = normalize(Incident{IncidentType: "unauthorized_access", RawData: map[string]any{"logs": mistyped}}, Indicators{}).Identity
	if id.Result != "success" || id.TargetedUsers > 1 || id.FailedAttempts != 1 {
		t.Errorf("one mistyped password: %+v", id)
	}

	for ip, same := range map[string]bool{"194.169.175.9": true, "194.169.176.9": false, "2001:db8::1": false} {
		if sameNetwork("194.169.175.31", ip) != same {
			t.Errorf("same network as 194.169.175.31: %s", ip)
		}
	}
}
