package triage

import "testing"

func TestAnExposedCredentialThatOpensNothing(t *testing.T) {
	tests := []struct {
		name string
		raw  map[string]any
		want bool
	}{
		{"aws documentation key id", map[string]any{"matched_text": "aws_access_key_id = AKIAIOSFODNN7EXAMPLE"}, true},
		{"aws documentation secret", map[string]any{"secret": "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"}, true},
		{"github validity inactive", map[string]any{"secret_type": "stripe_api_key", "validity": "inactive"}, true},
		{"scanner validation failed", map[string]any{"key_validation": map[string]any{"result": "Not a valid key for any AWS account (InvalidClientTokenId)"}}, true},
		{"a live key", map[string]any{"secret_type": "aws_access_key_id", "secret": "AKIA2OGYBAH6XR3J7Q4T", "validity": "active"}, false},
		{"revoked after exposure", map[string]any{"validity": "revoked"}, false},
		{"not checked", map[string]any{"secret_type": "slack_api_token", "validity": "unknown"}, false},
	}
	// A detector watching a key act names the key, whatever it looks like.
	acted := map[string]any{"type": "Discovery:S3/AnomalousBehavior", "resource": map[string]any{
		"accessKeyDetails": map[string]any{"accessKeyId": "AKIAXB3N7Q2P4EXAMPLE", "userName": "ci-deploy"}}}
	if readAlert(newDoc(acted)).UnusableSecret {
		t.Error("a key seen acting was read as an unusable exposed secret")
	}
	for _, tt := range tests {
		if got := unusableSecret(newDoc(tt.raw)); got != tt.want {
			t.Errorf("%s: %v, want %v", tt.name, got, tt.want)
		}
		if got := readAlert(newDoc(tt.raw)).UnusableSecret; got != tt.want {
			t.Errorf("%s, read with the alert: %v, want %v", tt.name, got, tt.want)
		}
	}
}
