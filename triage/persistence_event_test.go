package triage

import "testing"

// A log search forwarding Windows' "scheduled task created" event is read
// as an endpoint alert, and a task that runs a program from a user's
// folder is persistence there; one that runs an installed program is not.
func TestScheduledTaskEventToAUserFolderIsPersistence(t *testing.T) {
	task := logSearch("Endpoint - Scheduled Task Created - Rule", map[string]any{
		"host": "FD-PC03", "source": "WinEventLog:Security", "sourcetype": "WinEventLog", "EventCode": "4698",
		"_raw":     "EventCode=4698 Message=A scheduled task was created. Task Name: \\UpdaterTaskUA",
		"TaskName": "\\UpdaterTaskUA", "SubjectUserName": "mlopez", "Command": `C:\Users\Public\Libraries\updater.exe`,
	})
	installed := withResult(task, map[string]any{"Command": `C:\Program Files (x86)\Contoso\Update\updater.exe`})
	checkFires(t, "endpoint.persistence_to_user_path", "alert", "medium", []fireCase{
		{"a task running a program in Users\\Public", task, true},
		{"a task running an installed program", installed, false},
	})
}

// A program named like a Windows system process but running from a user's
// folder is masquerading; the same name under System32, or another
// program the alert names from a user's folder, is not.
func TestSystemProcessNameOutsideSystem32(t *testing.T) {
	fake := map[string]any{"process": map[string]any{"name": "svchost.exe", "path": `C:\Users\Public\svchost.exe`, "command_line": `C:\Users\Public\svchost.exe -k netsvcs`}}
	real := map[string]any{"process": map[string]any{"name": "svchost.exe", "path": `C:\Windows\System32\svchost.exe`, "command_line": `C:\Windows\System32\svchost.exe -k netsvcs`}}
	other := map[string]any{"process": map[string]any{"name": "explorer.exe", "path": `C:\Users\ana\Downloads\SerialMon\SerialMon.exe`, "command_line": `C:\Users\ana\Downloads\SerialMon\SerialMon.exe`}}
	checkFires(t, "endpoint.system_name_in_user_folder", "malware", "high", []fireCase{
		{"svchost.exe in Users\\Public", fake, true},
		{"svchost.exe in System32", real, false},
		{"another program's path", other, false},
	})
}

// A launch agent in a user's own LaunchAgents folder labelled as Apple's,
// starting a program from a hidden folder in the user's home, takes
// Apple's name to pass in a list of launch items; a vendor's agent there,
// or an Apple-labelled one starting an installed app, does not.
func TestAppleLabelledUserLaunchAgentIsMasquerading(t *testing.T) {
	agent := func(plist, program string) map[string]any {
		return map[string]any{"match": map[string]any{
			"event": map[string]any{"path": plist},
			"facts": []any{map[string]any{"name": "LaunchAgentCreated", "tags": []any{"Persistence"}}},
		}, "related": map[string]any{"files": []any{map[string]any{"path": plist,
			"contents": map[string]any{"Label": "agent", "ProgramArguments": []any{program}, "RunAtLoad": true}}}}}
	}
	const hidden = "/Users/lk/Library/Application Support/.com.apple.sfu/softwareupdated"
	checkFires(t, "endpoint.system_name_in_user_folder", "malware", "high", []fireCase{
		{"Apple's label on a user's agent", agent("/Users/lk/Library/LaunchAgents/com.apple.softwareupdated.agent.plist", hidden), true},
		{"a vendor's label", agent("/Users/lk/Library/LaunchAgents/com.zoom.updater.plist", hidden), false},
		{"Apple's label starting an installed app", agent("/Users/lk/Library/LaunchAgents/com.apple.helper.plist", "/Applications/Helper.app/Contents/MacOS/Helper"), false},
	})
}

// A registry event on a Run key that starts a program from a user's
// folder is persistence there; one starting an installed program is not.
func TestRunKeyToAUserFolderIsPersistence(t *testing.T) {
	run := map[string]any{
		"process":  map[string]any{"name": "updater.exe", "executable": `C:\Users\ana\AppData\Roaming\Updater\updater.exe`},
		"registry": map[string]any{"path": `HKCU\Software\Microsoft\Windows\CurrentVersion\Run\Updater`},
	}
	installed := withFields(run, map[string]any{"process": map[string]any{"name": "onedrive.exe", "executable": `C:\Program Files\Microsoft OneDrive\OneDrive.exe`}})
	other := withFields(run, map[string]any{"registry": map[string]any{"path": `HKCU\Software\Updater\Settings`}})
	// Per-user installs (Zoom, Teams) register Run keys to AppData too;
	// one on a million hosts is that.
	common := withFields(run, map[string]any{"prevalence": 41800000})
	checkFires(t, "endpoint.persistence_to_user_path", "malware", "medium", []fireCase{
		{"a Run key to AppData", run, true},
		{"a program on a million hosts", common, false},
		{"a Run key to Program Files", installed, false},
		{"another key", other, false},
	})
}

// A forwarder that files the Windows event ID as a number is read the
// same as one that files it as text.
func TestAWindowsEventIDIsReadAsTextOrNumber(t *testing.T) {
	for _, raw := range []map[string]any{{"EventID": float64(4771)}, {"EventCode": "4771"}, {"eventid": " 4771 "}} {
		if got := windowsEventCode(newDoc(raw)); got != "4771" {
			t.Errorf("%v: event code %q, want 4771", raw, got)
		}
	}
	if got := windowsEventCode(newDoc(map[string]any{"EventID": 4771.5})); got != "" {
		t.Errorf("a fraction is no event ID: %q", got)
	}
}
