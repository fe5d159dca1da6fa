package triage

import "testing"

// A reported message from an awareness campaign is read as a security test
// whether the platform's header is a key, a name in a header list, or the
// reporting tool's own verdict; an ordinary header list is not.
func TestSimulationCampaignIsReadWhereverItIsFiled(t *testing.T) {
	tests := []struct {
		name string
		raw  map[string]any
		want bool
	}{
		{"header list", map[string]any{"subject": "Parcel held", "headers": []any{
			map[string]any{"header": "X-Gophish-Contact", "value": "awareness@corp.example"}}}, true},
		{"header key", map[string]any{"subject": "Parcel held", "email_headers": map[string]any{"X-PhishMe-Tracking": "scenario=1"}}, true},
		{"reporting tool's tag", map[string]any{"subject": "Parcel held", "tags": []any{map[string]any{"name": "PHISH_TEST"}}}, true},
		{"reporting tool's verdict", map[string]any{"subject": "Parcel held", "disposition": "Training"}, true},
		{"ordinary headers", map[string]any{"subject": "Parcel held", "headers": []any{
			map[string]any{"header": "X-Mailer", "value": "Phishing test kit"}, map[string]any{"header": "Received", "value": "from mx"}}}, false},
	}
	for _, tt := range tests {
		f := normalize(Incident{IncidentType: "phishing", RawData: tt.raw}, Indicators{})
		if f.Alert.SecurityTesting != tt.want {
			t.Errorf("%s: security testing %v, want %v", tt.name, f.Alert.SecurityTesting, tt.want)
		}
	}
}
