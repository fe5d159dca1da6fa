package triage

import "testing"

// TestTheTestFileExplainsACriticalAlert holds that a critical detection of
// the anti-virus test file is closed: the file is harmless by design, so
// it explains the red flags as a designated exercise does, and the guard
// that keeps critical alerts open does not hold it.
func TestTheTestFileExplainsACriticalAlert(t *testing.T) {
	raw := mustJSON(t, `{"ThreatName": "Virus:DOS/EICAR_Test_File", "SeverityName": "Severe", "Path": "file:_C:\\Users\\lfarrell\\Downloads\\eicar_com.zip->eicar.com",
		"ProcessName": "C:\\Program Files\\Google\\Chrome\\Application\\chrome.exe", "Computer": "LT-SEC07"}`)
	a := analyzeRules(t, Incident{IncidentType: kindMalware, Severity: "critical", RawData: raw})
	if a.Verdict.Classification != ClassBenign {
		t.Errorf("a critical EICAR detection classified %s: %s", a.Verdict.Classification, a.Verdict.Reasoning)
	}
}
