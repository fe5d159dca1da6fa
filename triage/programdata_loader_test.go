package triage

import "testing"

// A system binary or interpreter pointed at code under ProgramData runs
// code any user could have put there; a program installed there running
// itself, or reading its data, does not.
func TestSystemBinaryLoadingFromProgramDataRunsUserWritableCode(t *testing.T) {
	for line, want := range map[string]bool{
		`rundll32.exe C:\ProgramData\Intel\igfxcfg.dll,StartW`:                       true,
		`powershell.exe -ep bypass -file C:\ProgramData\update\sync.ps1`:             true,
		`"C:\ProgramData\Vendor Agent\agent.exe" --service`:                          false,
		`"C:\Program Files\Vendor\backup.exe" --config C:\ProgramData\Vendor\a.json`: false,
		`rundll32.exe C:\Windows\System32\shell32.dll,Control_RunDLL`:                false,
	} {
		if got := commandRunsUserWritable(line); got != want {
			t.Errorf("commandRunsUserWritable(%q) = %v, want %v", line, got, want)
		}
	}
}
