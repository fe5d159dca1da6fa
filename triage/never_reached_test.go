package triage

import "testing"

func TestABlockedRequestThatNeverReachedTheServer(t *testing.T) {
	tests := []struct {
		name string
		raw  map[string]any
		want bool
	}{
		{"origin count zero", map[string]any{"action": "block", "origin_reached": 0}, true},
		{"origin status zero", map[string]any{"events": []any{map[string]any{"Action": "block", "OriginResponseStatus": 0}}}, true},
		{"access log dash", map[string]any{"Action": "Blocked", "ServerStatus": "-"}, true},
		{"one got through", map[string]any{"action": "block", "events": []any{
			map[string]any{"OriginResponseStatus": 0}, map[string]any{"OriginResponseStatus": 200}}}, false},
		{"reached flag", map[string]any{"action": "block", "reachedOrigin": true}, false},
		{"nothing said", map[string]any{"action": "block"}, false},
		{"not blocked", map[string]any{"action": "allow", "origin_reached": 0}, false},
	}
	for _, tt := range tests {
		if got := normalize(Incident{IncidentType: "network", RawData: tt.raw}, Indicators{}).Network.NeverReached; got != tt.want {
			t.Errorf("%s: %v, want %v", tt.name, got, tt.want)
		}
	}
}
