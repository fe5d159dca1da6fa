package triage

import "testing"

// TestARelatedSignInsDeviceIsNotThisOnes holds that a replayed token's
// sign-in is judged by its own device block: the compliant laptop of the
// interactive sign-in that issued the token, nested deeper, does not make
// a python client on a server the organisation's device.
func TestARelatedSignInsDeviceIsNotThisOnes(t *testing.T) {
	raw := map[string]any{
		"userPrincipalName": "i.solheim@example.com",
		"ipAddress":         "198.51.100.82",
		"userAgent":         "python-requests/2.32.3",
		"status":            map[string]any{"errorCode": 0},
		"deviceDetail":      map[string]any{"browser": "Python Requests 2.32.3", "isCompliant": false, "isManaged": false},
		"relatedInteractiveSignIn": map[string]any{
			"ipAddress":    "203.0.113.40",
			"deviceDetail": map[string]any{"displayName": "HE-LT-0192", "isCompliant": true, "isManaged": true, "trustType": "Azure AD joined"},
		},
	}
	id := normalize(Incident{IncidentType: kindLogin, RawData: raw}, Indicators{}).Identity
	if id.DeviceManaged || !id.DeviceUnmanaged {
		t.Errorf("managed %v unmanaged %v, want the python client's own unmanaged device", id.DeviceManaged, id.DeviceUnmanaged)
	}
	delete(raw, "deviceDetail")
	if id := normalize(Incident{IncidentType: kindLogin, RawData: raw}, Indicators{}).Identity; !id.DeviceManaged {
		t.Error("with no device block of its own, the only one stated still counts")
	}
}

// A network access server's posture assessment (Cisco ISE PostureStatus)
// states the device's compliance like a device block does.
func TestAPostureAssessmentStatesTheDevicesCompliance(t *testing.T) {
	for posture, managed := range map[string]bool{"Compliant": true, "NonCompliant": false} {
		raw := map[string]any{"UserName": "k.tanabe", "Calling-Station-ID": "198.51.100.19", "message_text": "Authentication succeeded", "PostureStatus": posture}
		id := normalize(Incident{IncidentType: kindLogin, RawData: raw}, Indicators{}).Identity
		if id.DeviceManaged != managed {
			t.Errorf("posture %s: managed %v, want %v", posture, id.DeviceManaged, managed)
		}
	}
}
