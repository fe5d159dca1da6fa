package triage

import "testing"

// Mimecast's URL Protect records a recipient going on past its warning
// page as a user awareness action or user override of Continue; a click
// the gateway let through without a warning, or blocked, is not that.
func TestContinuedPastWarning(t *testing.T) {
	click := func(extra map[string]any) map[string]any {
		return map[string]any{"clickLogs": []any{withFields(map[string]any{
			"userEmailAddress": "m.ito@kestrel.example", "url": "https://zoom-docs.example/s/8812",
			"scanResult": "malicious", "category": "Phishing & Fraud", "creationMethod": "User Click",
		}, extra)}}
	}
	for name, tc := range map[string]struct {
		raw       map[string]any
		continued bool
	}{
		"awareness continue":  {click(map[string]any{"userAwarenessAction": "Continued", "action": "warn"}), true},
		"user override":       {click(map[string]any{"userOverride": "Continue", "action": "warn"}), true},
		"warned and stopped":  {click(map[string]any{"userAwarenessAction": "N/A", "action": "block"}), false},
		"no warning recorded": {click(map[string]any{"userOverride": "None", "action": "allow"}), false},
	} {
		f := normalize(Incident{IncidentType: "phishing", RawData: tc.raw}, Indicators{}).Email
		if f.ContinuedPastWarning != tc.continued || tc.continued && !f.Clicked {
			t.Errorf("%s: continued %v clicked %v", name, f.ContinuedPastWarning, f.Clicked)
		}
	}
}
