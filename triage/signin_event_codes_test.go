package triage

import "testing"

// A log search forwarding a Windows or AD FS sign-in event by its
// EventCode is a sign-in, read by the identity readers; a process started
// or a service installed is an endpoint event; another event code is
// neither. A count named for the source address is not the address.
func TestLogSearchSignInEventCodesAreSignIns(t *testing.T) {
	search := func(code string) map[string]any {
		return map[string]any{
			"search_name":  "AD FS credential failures by source",
			"trigger_time": 1760836064,
			"result": map[string]any{
				"host": "STS01", "sourcetype": "WinEventLog", "EventCode": code,
				"src_ip":                             "45.148.10.77",
				"distinct_users_failed_same_src_60m": "187",
				"failed_count":                       "301",
			},
		}
	}
	for code, want := range map[string]string{"1203": "identity", "411": "identity", "4625": "identity", "7045": "endpoint", "4688": "endpoint", "5136": ""} {
		f := normalize(Incident{IncidentType: "alert", RawData: search(code)}, Indicators{})
		if f.Shape != want {
			t.Errorf("EventCode %s read as shape %q, want %q", code, f.Shape, want)
		}
		if want == "identity" && f.Identity.SourceIP != "45.148.10.77" {
			t.Errorf("EventCode %s: source address read as %q", code, f.Identity.SourceIP)
		}
	}
}
