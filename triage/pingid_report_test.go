package triage

import "testing"

// A PingID activity report lists each push with its status and the
// accessing address: rejected pushes are refused second factors, the
// approval after them a success, and the accessing address and ASN are
// the sign-in's.
func TestPingIDActivityReport(t *testing.T) {
	push := func(status string, ok bool) map[string]any {
		return map[string]any{"time": "2025-06-03T23:31:02Z", "user": "d.osei@example.org", "action": "Authentication",
			"method": "Swipe (push)", "status": status, "authenticationSuccessful": ok,
			"accessingIp": "149.28.93.214", "accessingAsn": "AS20473 The Constant Company (Vultr)"}
	}
	records := []any{}
	for i := 0; i < 6; i++ {
		records = append(records, push("REJECTED", false))
	}
	records = append(records, push("APPROVED", true))
	raw := map[string]any{"report": "PingID Authentication Activity", "records": records}
	f := normalize(Incident{IncidentType: "suspicious_login", RawData: raw}, Indicators{}).Identity
	if f.SourceIP != "149.28.93.214" || !f.Hosting || f.Result != "success" || f.PushDenied < 6 {
		t.Errorf("report read as %+v", f)
	}
	a := analyze(t, Incident{IncidentType: "suspicious_login", Severity: "high", RawData: raw})
	if a.Verdict.Classification != ClassMalicious {
		t.Errorf("push bombing then approval from a hosting network: %s (%s)", a.Verdict.Classification, a.Verdict.Reasoning)
	}
}
