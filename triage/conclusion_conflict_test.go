package triage

import "testing"

// When a product's verdicts on the parts of an alert disagree, the threat
// it saw in one part is its conclusion, not the clean verdict on another;
// a current disposition after a reclassification outranks the history.
func TestConflictingVerdictsKeepTheThreat(t *testing.T) {
	tests := []struct {
		name string
		raw  map[string]any
		want string
	}{
		{"clean invite, phishing link", map[string]any{
			"attachments": []any{map[string]any{"fileName": "invite.ics", "verdict": "clean"}},
			"urls":        []any{map[string]any{"url": "https://teams-join.example/l/meetup-join", "verdict": "phishing"}},
		}, "malicious"},
		{"click allowed, then blocked once judged", map[string]any{
			"clickLogs": []any{
				map[string]any{"action": "allow", "scanResult": "clean"},
				map[string]any{"action": "block", "scanResult": "malicious"},
			},
		}, "malicious"},
		{"reclassified clean", map[string]any{
			"events":              []any{map[string]any{"disposition": "Malicious"}, map[string]any{"disposition": "Clean"}},
			"current_disposition": "Clean",
		}, "false_positive"},
		// Every part scanned clean is still not the product clearing the
		// message (see TestArtifactVerdictIsNotTheAlertsConclusion).
		{"all clean", map[string]any{
			"attachments": []any{map[string]any{"verdict": "clean"}},
			"urls":        []any{map[string]any{"verdict": "clean"}},
		}, ""},
	}
	for _, tc := range tests {
		if got, _ := vendorVerdict(newDoc(tc.raw)); got != tc.want {
			t.Errorf("%s: vendor verdict %q, want %q", tc.name, got, tc.want)
		}
	}
}
