package triage

import "testing"

// TestAReportOfActivityAtHomeIsNotATakeoverYet holds that a user's
// report of activity the provider places in the user's own country counts
// less than one of activity abroad: a second device or a household
// computer explains the first as often as an intruder does.
func TestAReportOfActivityAtHomeIsNotATakeoverYet(t *testing.T) {
	report := func(debug map[string]any) map[string]any {
		return map[string]any{
			"eventType": "user.account.report_suspicious_activity_by_enduser",
			"actor":     map[string]any{"alternateId": "r.ito@example.com"},
			"client": map[string]any{"ipAddress": "73.22.148.90",
				"geographicalContext": map[string]any{"city": "Denver", "country": "United States"}},
			"outcome":      map[string]any{"result": "SUCCESS"},
			"debugContext": map[string]any{"debugData": debug},
		}
	}
	tests := []struct {
		name   string
		debug  map[string]any
		nearby bool
	}{
		{"a country field at home", map[string]any{"suspiciousActivityEventCountry": "United States", "suspiciousActivityEventCity": "Aurora"}, true},
		{"a location line at home", map[string]any{"suspiciousActivityLocation": "Boulder, Colorado, United States"}, true},
		{"abroad", map[string]any{"suspiciousActivityEventCountry": "Romania"}, false},
		{"no place given", map[string]any{"suspiciousActivityEventType": "system.push.send_factor_verify_push"}, false},
	}
	for _, tt := range tests {
		f := normalize(Incident{IncidentType: kindLogin, RawData: report(tt.debug)}, Indicators{})
		if !f.Identity.UserReported || f.Identity.ReportedNearby != tt.nearby {
			t.Errorf("%s: reported %v nearby %v, want nearby %v", tt.name, f.Identity.UserReported, f.Identity.ReportedNearby, tt.nearby)
			continue
		}
		got := firedRules(kindLogin, f)
		if got["identity.owner_reported_not_theirs"] == tt.nearby || got["identity.owner_reported_activity_nearby"] != tt.nearby {
			t.Errorf("%s: fired %v", tt.name, got)
		}
	}
}
