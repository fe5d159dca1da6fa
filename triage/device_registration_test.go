package triage

import "testing"

// TestADeviceCodeGrantToDeviceRegistrationIsWeighed holds that an Entra
// user sign-in (whose servicePrincipalId is empty) is no workload, and
// that a device-code grant spent on the Device Registration Service from
// an unmanaged device is weighed as device-code phishing's next step.
func TestADeviceCodeGrantToDeviceRegistrationIsWeighed(t *testing.T) {
	raw := map[string]any{"userPrincipalName": "g.lindqvist@example.com", "appDisplayName": "Microsoft Authentication Broker",
		"ipAddress": "73.189.42.118", "clientAppUsed": "Mobile Apps and Desktop clients", "servicePrincipalId": "",
		"signInEventTypes": []any{"interactiveUser"}, "authenticationProtocol": "deviceCode",
		"resourceDisplayName": "Device Registration Service", "resourceId": "01cb2876-7ebd-4aa4-9cc9-d28bd4d359a9",
		"status":       map[string]any{"errorCode": 0.0},
		"deviceDetail": map[string]any{"isCompliant": false, "isManaged": false}}
	f := normalize(Incident{IncidentType: kindLogin, RawData: raw}, Indicators{})
	if f.Identity.Workload {
		t.Error("a user's sign-in with an empty servicePrincipalId read as a workload")
	}
	if !f.Identity.DeviceRegistration {
		t.Fatal("the Device Registration Service was not read as the resource")
	}
	if !firedRules(kindLogin, f)["identity.device_code_registers_device"] {
		t.Error("the device-code registration was not weighed")
	}
	raw["servicePrincipalId"] = "5e3ce6c0-2b1f-4285-8d4b-75ee78787346"
	raw["signInEventTypes"] = []any{"servicePrincipal"}
	if !identityOf(raw).Workload {
		t.Error("a service principal's sign-in was not read as a workload")
	}
}
