package triage

import "testing"

// Netskope's app tags and an instance named for the organisation mark the
// organisation's own tenant as the destination; a download's instance is
// where the data came from, and a personal instance is never sanctioned.
func TestDataDestinationTenantIsRead(t *testing.T) {
	base := map[string]any{
		"alert_type": "DLP", "activity": "Upload", "app": "Box", "appcategory": "Cloud Storage",
		"user": "l.fairbanks@meridianfreight.com", "dlp_profile": "Payroll", "dlp_rule_count": 612,
	}
	for _, tc := range []struct {
		name  string
		extra map[string]any
		want  bool
	}{
		{"instance named for the organisation", map[string]any{"instance_id": "meridianfreight"}, true},
		{"tenant host", map[string]any{"instance_id": "meridianfreight.app.box.com"}, true},
		{"sanctioned app tag", map[string]any{"app_tags": []any{"Sanctioned"}, "instance_id": "mf-hr"}, true},
		{"another organisation's instance", map[string]any{"instance_id": "northwindlogistics"}, false},
		{"a download from the tenant", map[string]any{"instance_id": "meridianfreight", "activity": "Download"}, false},
		{"a personal instance", map[string]any{"app_tags": []any{"Sanctioned"}, "instance_id": "personal"}, false},
	} {
		f := normalize(Incident{IncidentType: "data_loss", RawData: withFields(base, tc.extra)}, Indicators{})
		if f.Data.Sanctioned != tc.want {
			t.Errorf("%s: sanctioned %v, want %v", tc.name, f.Data.Sanctioned, tc.want)
		}
	}
}
