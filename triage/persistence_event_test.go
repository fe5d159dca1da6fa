package triage

import "testing"

// A log search forwarding Windows' "scheduled task created" event is read
// as an endpoint alert, and a task that runs a program from a user's
// folder is persistence there; one that runs an installed program is not.
func TestScheduledTaskEventToAUserFolderIsPersistence(t *testing.T) {
	task := map[string]any{
		"search_name": "Endpoint - Scheduled Task Created - Rule", "trigger_time": 1741776210,
		"result": map[string]any{
			"host": "FD-PC03", "source": "WinEventLog:Security", "sourcetype": "WinEventLog", "EventCode": "4698",
			"_raw":     "EventCode=4698 Message=A scheduled task was created. Task Name: \\UpdaterTaskUA",
			"TaskName": "\\UpdaterTaskUA", "SubjectUserName": "mlopez", "Command": `C:\Users\Public\Libraries\updater.exe`,
		},
	}
	installed := withFields(task, map[string]any{"result": withFields(task["result"].(map[string]any), map[string]any{"Command": `C:\Program Files (x86)\Contoso\Update\updater.exe`})})
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
