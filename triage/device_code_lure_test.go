package triage

import "testing"

func TestAMessageSendingItsReaderToADeviceCodePage(t *testing.T) {
	tests := map[string]bool{
		"go to https://microsoft.com/devicelogin and enter the code HQ7R-K2PX": true,
		"open aka.ms/devicelogin, code 7QKM-3XZD":                              true,
		"https://login.microsoftonline.com/common/oauth2/deviceauth":           true,
		"visit https://github.com/login/device and type the code":              true,
		"https://www.google.com/device":                                        true,
		"sign in at https://login.microsoftonline.com/ as usual":               false,
		"our device management portal is at https://contoso.com/devices/login": false,
	}
	for text, want := range tests {
		if got := deviceCodeLure(text); got != want {
			t.Errorf("%q: %v, want %v", text, got, want)
		}
	}
	f := normalize(Incident{IncidentType: "phishing", RawData: map[string]any{
		"sender": "it-support@contoso-helpdesk.example", "subject": "Mailbox re-verification",
		"body": "go to https://microsoft.com/devicelogin and enter the code HQ7R-K2PX",
	}}, Indicators{})
	if !f.Email.DeviceCodeLure {
		t.Error("a message's body is read for a device-code lure")
	}
}
