package triage

import "strings"

// FortiGate logs each SSL VPN sign-in as a VPN event: "ssl-login-fail"
// (log ID 0101039426) for a refused user or password, "tunnel-up"
// (0101039424) once the user is in, with the remote address in remip.
// FortiAnalyzer's event handlers forward the matching logs as a list,
// which the sign-in chain folds.

// vpnOutcome reads a VPN gateway event's outcome into f and reports
// whether the event was one.
func vpnOutcome(f *IdentityFields, cur *doc) bool {
	if !cur.has("tunneltype") {
		return false
	}
	action := strings.ToLower(cur.scalarStr("action"))
	switch {
	case strings.Contains(action, "fail") || strings.Contains(action, "deny"):
		f.Result = "failure"
	case action == "tunnel-up" || action == "ssl-login-success":
		f.Result = "success"
	default:
		return false
	}
	return true
}
