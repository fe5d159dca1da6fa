package triage

import "testing"

// Configuration Manager runs package programs through smsswd.exe and task
// sequences through TSManager.exe; either as an ancestor is the
// organisation's management agent, as ccmexec.exe is.
func TestConfigMgrPackageRunnersAreManagementAgents(t *testing.T) {
	for ancestor, want := range map[string]string{
		`C:\Windows\CCM\smsswd.exe`:    "smsswd",
		`X:\sms\bin\x64\TsManager.exe`: "tsmanager",
		`C:\Windows\explorer.exe`:      "",
	} {
		f := normalize(Incident{IncidentType: "malware", RawData: map[string]any{
			"DetectName":               "Suspicious script",
			"CommandLine":              `powershell.exe -File C:\_SMSTaskSequence\Packages\P0100382\Configure-Kiosk.ps1`,
			"ParentImageFileName":      `C:\Windows\System32\cmd.exe`,
			"GrandparentImageFileName": ancestor,
		}}, Indicators{})
		if got := f.Endpoint.Context.ManagementAgent; got != want {
			t.Errorf("%s: management agent %q, want %q", ancestor, got, want)
		}
	}
}
