package triage

import "testing"

// A push-fatigue run is read whether the provider counts the denials
// under its own name or names the pattern itself (Duo Trust Monitor's
// "push harassment"); an approval after a single prompt is not one.
func TestPushFatigueIsReadInProvidersOwnNames(t *testing.T) {
	approved := map[string]any{
		"user": "m.okafor@halvorsen.example", "result": "success", "factor": "duo_push", "reason": "user_approved",
		"access_device": map[string]any{"ip": "198.51.100.40"},
	}
	checkFires(t, "identity.fatigue_then_approval", "suspicious_login", "high", []fireCase{
		{"denials counted as push_denied_count", withFields(approved, map[string]any{"push_denied_count": 11}), true},
		{"detection named push harassment", withFields(approved, map[string]any{"detections": []any{"Push Harassment"}}), true},
		{"one approved prompt", approved, false},
	})
}
