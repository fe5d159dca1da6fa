package triage

import (
	"fmt"
	"testing"
)

// directoryLogin is a JumpCloud Directory Insights sign-in event: the
// outcome is a `success` boolean and `organization` is the tenant id.
func directoryLogin(user, ip string, ok bool, minute int) map[string]any {
	return map[string]any{
		"service": "directory", "event_type": "user_login_attempt",
		"timestamp":    fmt.Sprintf("2025-06-14T03:%02d:05Z", minute),
		"initiated_by": map[string]any{"type": "user", "username": user},
		"client_ip":    ip, "auth_method": "password", "mfa": false, "success": ok,
		"organization": "581fbb9d6a2002cc2ed2c56a",
	}
}

// A list of Directory Insights events is a sign-in chain like any other:
// one address failing on many accounts and then getting into one is a
// spray that worked, and the tenant id is not the network's owner.
func TestDirectoryInsightsEventsAreASignInChain(t *testing.T) {
	var events []any
	for i, u := range []string{"anguyen", "bross", "ckim", "dmartin", "esilva", "fokafor"} {
		events = append(events, directoryLogin(u, "185.225.74.31", false, 40+i))
	}
	spray := map[string]any{"alert_title": "Multiple failed logins from a single IP", "related_events": append(events, directoryLogin("jwilson", "185.225.74.31", true, 47))}
	checkFires(t, "identity.spray_then_success", "unauthorized_access", "high", []fireCase{
		{"failures on six accounts, then a success", spray, true},
		{"failures only", map[string]any{"alert_title": "Multiple failed logins from a single IP", "related_events": events}, false},
	})
	if isp := readIdentityFields(directoryLogin("jwilson", "185.225.74.31", true, 47)).ISP; isp != "" {
		t.Fatalf("ISP = %q, want none: the organization field is the tenant id", isp)
	}
}
