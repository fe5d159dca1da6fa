package triage

import "testing"

// An alert whose only detection is a potentially unwanted program stays
// suspicious when weaker rule findings pile up (unsigned, run from the
// user's folder, a remote tool outside IT's hands); a finding of its own,
// such as a sync tool aimed at consumer cloud storage, lifts the cap.
func TestUnwantedProgramAloneStaysSuspicious(t *testing.T) {
	alert := map[string]any{
		"threat_name":  "PUA:Win32/RemoteAdmin",
		"file_path":    `C:\Users\f.osei\Downloads\AnyDesk.exe`,
		"command_line": `"C:\Users\f.osei\Downloads\AnyDesk.exe" --install "C:\Program Files (x86)\AnyDesk" --start-with-win --silent`,
		"process_name": "anydesk.exe",
		"signed":       false,
		"username":     `CORP\f.osei`,
	}
	a := analyze(t, Incident{IncidentType: "malware", Severity: "high", RawData: alert})
	if a.Verdict.Classification != ClassSuspicious || a.Verdict.Category != "pup" {
		t.Errorf("unwanted program alone: %s/%s, want suspicious/pup (%s)", a.Verdict.Classification, a.Verdict.Category, a.Verdict.Reasoning)
	}
	ev := &evidence{unwantedOnly: true}
	ev.add(0.9, "a pile of weak findings")
	if got := reclassify(kindMalware, ev); got != ClassSuspicious {
		t.Errorf("capped evidence at 0.9 reclassified %s, want suspicious", got)
	}
	ev.unwantedOnly = false
	if got := reclassify(kindMalware, ev); got != ClassMalicious {
		t.Errorf("uncapped evidence at 0.9 reclassified %s, want malicious", got)
	}
}
