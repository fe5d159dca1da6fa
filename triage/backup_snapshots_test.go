package triage

import "testing"

// Backup software rotating its own snapshots sets off ransomware
// heuristics; an alert on it is closed. The same command wiping every
// copy, the same rotation from a program in a user's folder, or one that
// left a ransom note is not.
func TestBackupSoftwareRotatingItsSnapshotsIsClosed(t *testing.T) {
	base := map[string]any{
		"detection": "Ransomware behaviour: volume shadow copy deletion",
		"severity":  "high",
		"hostname":  "BKP-01",
		"username":  `CORP\svc-backup`,
		"cmdline":   `vssadmin.exe delete shadows /for=E: /oldest /quiet`,
		"process":   map[string]any{"name": "vssadmin.exe", "path": `C:\Windows\System32\vssadmin.exe`},
		"parent":    map[string]any{"name": "veeam.backup.manager.exe", "path": `C:\Program Files\Veeam\Backup and Replication\Backup\Veeam.Backup.Manager.exe`},
	}
	alert := func(extra map[string]any) map[string]any { return withFields(base, extra) }
	checkClosed(t, "malware", []closeCase{
		{"oldest copy rotated by the backup server", alert(nil), true},
		{"named copy removed by the backup agent", alert(map[string]any{"cmdline": `vssadmin delete shadows /shadow={7f3a2c91-4b6e-4d18-9a0c-2e5f1b7d8c43} /quiet`}), true},
		{"every copy deleted", alert(map[string]any{"cmdline": `vssadmin.exe delete shadows /all /quiet`}), false},
		{"rotation plus recovery turned off", alert(map[string]any{"cmdline": `vssadmin delete shadows /oldest /quiet & bcdedit /set {default} recoveryenabled no`}), false},
		{"launcher in a user's folder", alert(map[string]any{"parent": map[string]any{"name": "veeam.exe", "path": `C:\Users\j.doe\AppData\Local\Temp\veeam.exe`}}), false},
		{"ransom note left", alert(map[string]any{"files": `E:\Shares\HOW_TO_DECRYPT.txt written to 412 folders`}), false},
	})
	f := normalize(Incident{IncidentType: "malware", RawData: alert(map[string]any{"indicators": "none (no bcdedit, wbadmin, mass file rename or service stops)"})}, Indicators{})
	if f.Endpoint.Context.BackupSoftware != "veeam" || f.Endpoint.ShadowDelete || f.Endpoint.MassRename {
		t.Errorf("backup %q, shadow delete %v, mass rename %v; want veeam, a rotation and no renames (the alert says there were none)",
			f.Endpoint.Context.BackupSoftware, f.Endpoint.ShadowDelete, f.Endpoint.MassRename)
	}
}

// An XDR file event names the file the process touched before the
// process; the backup agent is still read from the command line that
// started it, unless it runs from a folder any user can write.
func TestBackupAgentReadFromItsCommandLine(t *testing.T) {
	event := func(image string) map[string]any {
		return map[string]any{"events": []any{map[string]any{
			"event_type":                 "FILE",
			"action_file_name":           "assembly_rev14.dwg",
			"action_file_path":           `E:\Shares\Engineering\CAD\assembly_rev14.dwg`,
			"actor_process_command_line": `"` + image + `" -j 1184302 -a 2:47 -t 1 -d fs-prd-02`,
			"actor_process_image_name":   "clBackup.exe",
		}}}
	}
	for image, want := range map[string]string{
		`C:\Program Files\Commvault\ContentStore\Base\clBackup.exe`:     "commvault",
		`C:\Users\Public\Downloads\Commvault\ContentStore\clBackup.exe`: "",
	} {
		raw := event(image)
		f := normalize(Incident{IncidentType: "malware", RawData: raw}, ExtractIndicators(raw))
		if got := f.Endpoint.Context.BackupSoftware; got != want {
			t.Errorf("%s: backup software %q, want %q", image, got, want)
		}
	}
}
