package triage

import "testing"

// A product's benign reputation of one artifact or of a parent process is
// that file's, not the product clearing the alert, and a scan finding one
// part of a message clean is not the product clearing the message; a
// conclusion on the alert itself, or on the file it is about, still is.
func TestArtifactVerdictIsNotTheAlertsConclusion(t *testing.T) {
	for _, tc := range []struct {
		name, payload, want string
	}{
		{"hijacked program's reputation", `{"name":"DLL search order hijacking","file_artifacts":{"data":[
			{"file_name":"Invoice_Q1_Details.exe","file_wildfire_verdict":"BENIGN"},
			{"file_name":"version.dll","file_wildfire_verdict":"PENDING"}]}}`, ""},
		{"parent's disposition", `{"detection":"W32.Auto:e3f1a9c47b.in03.Talos","file":{"file_name":"KeePassXC-2.7.9-Win64.msi",
			"parent":{"disposition":"Clean","file_name":"msedge.exe"}}}`, ""},
		{"the alert's own resolution", `{"name":"DLL search order hijacking","resolution_status":"STATUS_040_RESOLVED_FALSE_POSITIVE",
			"file_artifacts":{"data":[{"file_wildfire_verdict":"MALWARE"}]}}`, "false_positive"},
		{"the detected file cleared", `{"detection":"W32.Auto","file":{"disposition":"Clean","file_name":"setup.msi"}}`, "false_positive"},
		{"a message's attachment scanned clean", `{"eventType":"MessageFlagged","data":{"subject":"RFQ 2291",
			"attachments":[{"fileName":"rfq.pdf","verdict":"clean"}]}}`, ""},
		{"a message's clicked link scanned clean", `{"data":{"clickLogs":[{"url":"https://quote.example.app","scanResult":"clean"}]}}`, ""},
		{"the product's reclassification of a click", `{"clicksPermitted":[{"url":"https://docs.example","threatStatus":"falsePositive"}]}`, "false_positive"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, _ := vendorVerdict(newDoc(mustJSON(t, tc.payload)))
			if got != tc.want {
				t.Fatalf("vendor verdict %q, want %q", got, tc.want)
			}
		})
	}
}
