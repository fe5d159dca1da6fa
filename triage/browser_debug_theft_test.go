package triage

import "testing"

// A browser started with remote debugging on the user's own profile is
// cookie theft; test automation debugging a throwaway profile is not. An
// unsigned file in the alert is never a signed vendor update, whatever it
// is called.
func TestBrowserDebugTheftAndUnsignedUpdater(t *testing.T) {
	for cmd, want := range map[string]bool{
		`chrome.exe --headless=new --remote-debugging-port=9222 --remote-allow-origins=* --user-data-dir="C:\Users\e.b\AppData\Local\Google\Chrome\User Data" --profile-directory=Default`: true,
		`msedge.exe --headless --remote-debugging-port=9333 --user-data-dir=C:\Users\dev\AppData\Local\Microsoft\Edge\User Data`:                                                           true,
		`chrome.exe --headless --remote-debugging-port=0 --user-data-dir=C:\Users\ci\AppData\Local\Temp\playwright_chromiumdev_profile-Xz12`:                                               false,
		`chrome.exe --user-data-dir="C:\Users\e.b\AppData\Local\Google\Chrome\User Data"`:                                                                                                  false,
	} {
		f := normalize(Incident{IncidentType: "malware", RawData: map[string]any{"CommandLine": cmd, "FileName": "chrome.exe"}}, Indicators{})
		if got := f.Endpoint.Behaviour.BrowserDebugTheft; got != want {
			t.Errorf("%s: browser debug theft %v, want %v", cmd, got, want)
		}
	}
	f := normalize(Incident{IncidentType: "malware", RawData: map[string]any{
		"processPath": `C:\Users\e.b\AppData\Local\Temp\vcredist_x64_upd\svc_updater.exe`, "signer": "Unsigned",
	}}, Indicators{})
	if f.Endpoint.Context.VendorUpdate != "" {
		t.Errorf("an unsigned updater read as vendor %q's update", f.Endpoint.Context.VendorUpdate)
	}
}
