package triage

import "testing"

// The sign-in before the one judged (Entra's priorSignIn, a last
// successful sign-in) describes the user's own earlier session: its
// compliant device is not the current session's.
func TestPriorSignInDeviceIsNotTheCurrentOne(t *testing.T) {
	raw := map[string]any{
		"userPrincipalName": "r.iyer@kestrel.example", "ipAddress": "194.87.31.142",
		"authenticationProtocol": "deviceCode", "status": map[string]any{"errorCode": 0},
		"deviceDetail": map[string]any{"operatingSystem": "Windows10", "isCompliant": false, "isManaged": false},
	}
	for _, key := range []string{"priorSignIn", "lastSuccessfulSignIn"} {
		withPrior := withFields(raw, map[string]any{key: map[string]any{
			"ipAddress": "81.2.69.160", "deviceDetail": map[string]any{"displayName": "ENG-LT-RIYER", "isCompliant": true, "trustType": "Azure AD joined"},
		}})
		if f := readIdentityFields(withPrior); f.DeviceManaged || f.DeviceKnown {
			t.Errorf("%s: the earlier session's compliant device was read as the current one: %+v", key, f)
		}
	}
}
