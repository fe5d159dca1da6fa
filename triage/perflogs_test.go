package triage

import (
	"strings"
	"testing"
)

// TestPerfLogsIsUserWritableAndMikatzIsMimikatz holds that C:\PerfLogs,
// which every user can write, is a staging folder, and that Microsoft's
// name for Mimikatz builds (HackTool:Win64/Mikatz) names the family.
func TestPerfLogsIsUserWritableAndMikatzIsMimikatz(t *testing.T) {
	if !writable(`file:_C:\PerfLogs\x64\mmc64.exe`) {
		t.Error("C:\\PerfLogs was not read as user-writable")
	}
	if writable(`C:\Program Files\PerfLogs Viewer\viewer.exe`) {
		t.Error("a program folder named for PerfLogs read as the staging folder")
	}
	raw := mustJSON(t, `{"event_data": {"Threat Name": "HackTool:Win64/Mikatz!dha", "Category Name": "Tool", "Process Name": "C:\\Windows\\System32\\certutil.exe", "Path": "file:_C:\\PerfLogs\\x64\\mmc64.exe"}}`)
	a := analyzeRules(t, Incident{IncidentType: kindMalware, Severity: "high", RawData: raw})
	if !strings.Contains(a.Verdict.Reasoning, "known malicious family or type (mikatz)") {
		t.Errorf("Mikatz not read as the family: %s", a.Verdict.Reasoning)
	}
}
