package triage

import "testing"

// A root shell started by sudo is a person's command, not installed
// software maintaining itself, though sudo lives under /usr; a root
// process started by an installed agent under /opt is.
func TestSudoIsNotInstalledSoftware(t *testing.T) {
	proc := func(parent, parentPath string) map[string]any {
		return map[string]any{"process": map[string]any{"name": "bash", "executable": "/usr/bin/bash", "command_line": "bash",
			"parent": map[string]any{"name": parent, "executable": parentPath}}, "user": "root"}
	}
	checkFires(t, "endpoint.installed_software_as_system", "malware", "medium", []fireCase{
		{"an agent's maintenance shell", proc("falcon-sensor", "/opt/CrowdStrike/falcon-sensor"), true},
		{"a shell started by sudo", proc("sudo", "/usr/bin/sudo"), false},
	})
}
