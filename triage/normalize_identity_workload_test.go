package triage

import "testing"

func TestWorkloadNewCredentialReadsAgeAndWording(t *testing.T) {
	for _, c := range []struct {
		raw  map[string]any
		want bool
	}{
		{map[string]any{"servicePrincipalId": "x", "credentialAgeDays": 1.0}, true},
		{map[string]any{"servicePrincipalId": "x", "credentialAgeDays": 400.0}, false},
		{map[string]any{"servicePrincipalId": "x", "note": "A certificate was uploaded to the app registration 40 minutes before this token request."}, true},
		{map[string]any{"servicePrincipalId": "x", "note": "Sign-in used a newly generated client secret."}, true},
		{map[string]any{"servicePrincipalId": "x", "note": "Routine token refresh for the nightly export."}, false},
	} {
		if got := workloadNewCredential(newDoc(c.raw)); got != c.want {
			t.Errorf("%v: got %v, want %v", c.raw, got, c.want)
		}
	}
}
