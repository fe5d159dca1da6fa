package triage

import "testing"

// pingOneEvent builds one PingOne audit activity.
func pingOneEvent(at, action, ip string, extra map[string]any) map[string]any {
	ev := map[string]any{
		"recordedAt": at,
		"actors": map[string]any{
			"client": map[string]any{"id": "c1", "name": "Workforce Portal", "type": "CLIENT"},
			"user":   map[string]any{"id": "5c7e9a1b-3d5f-4a7c", "name": "r.okafor@northwind.example", "type": "USER"},
		},
		"action": map[string]any{"type": action},
		"result": map[string]any{"status": "SUCCESS"},
		"ip":     ip,
	}
	for k, v := range extra {
		ev[k] = v
	}
	return ev
}

// PingOne activities are read in the common names: the user's name, not
// its id, the action type as the event, the paired "device" as a second
// factor. A factor enrolled from the address of a high-risk or hosting
// sign-in is the session keeping the account; the same enrolment after an
// ordinary sign-in is not.
func TestPingOneChainReadsAFactorEnrolledInARiskySession(t *testing.T) {
	f := readIdentityFields(pingOneEvent("2025-10-31T02:08:15Z", "USER.ACCESS_ALLOWED", "149.28.92.177", nil))
	if f.User != "r.okafor@northwind.example" || f.Event != "user.access_allowed" || f.Result != "success" {
		t.Fatalf("activity read as user %q event %q result %q", f.User, f.Event, f.Result)
	}
	chain := func(risk string, note string) map[string]any {
		return map[string]any{
			"_embedded": map[string]any{"activities": []any{
				pingOneEvent("2025-10-31T02:04:11Z", "USER.ACCESS_ALLOWED", "149.28.92.177",
					map[string]any{"risk": map[string]any{"level": risk}}),
				pingOneEvent("2025-10-31T02:06:48Z", "DEVICE.CREATED", "149.28.92.177", nil),
			}},
			"context": map[string]any{"149.28.92.177": note},
		}
	}
	checkFires(t, "identity.factor_enrolled_in_risky_session", "suspicious_login", "medium", []fireCase{
		{"high-risk sign-in", chain("HIGH", "residential broadband"), true},
		{"hosting address named in the enrichment", chain("LOW", "AS20473 Vultr (hosting), Singapore"), true},
		{"ordinary sign-in", chain("LOW", "residential broadband"), false},
	})
}
