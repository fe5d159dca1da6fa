package triage

import "testing"

// A shell under an exposed Redis that appends a key to root's
// authorized_keys and locks the file is the exploit's persistence; the
// same key written by configuration management, or a shell under Redis
// that only reads the file, is not.
func TestServerShellPlantingAnSSHKey(t *testing.T) {
	planted := map[string]any{
		"process_name": "sh", "parent_name": "redis-server",
		"process_cmdline": "sh -c echo 'ssh-ed25519 AAAAC3Nza' >> /root/.ssh/authorized_keys; chattr +i /root/.ssh/authorized_keys",
	}
	checkFires(t, "endpoint.server_plants_ssh_key", "malware", "medium", []fireCase{
		{"a shell under redis-server", planted, true},
		{"configuration management", withFields(planted, map[string]any{"parent_name": "ansible-playbook"}), false},
		{"a shell that only reads the file", withFields(planted, map[string]any{"process_cmdline": "sh -c cat /root/.ssh/authorized_keys"}), false},
	})
}

// Linux audit records name the program comm and its path exe.
func TestAuditRecordNamesItsProgram(t *testing.T) {
	f := readEndpointFields(newDoc(map[string]any{"type": "SYSCALL", "comm": "chattr", "exe": "/usr/bin/chattr", "uid": "0"}), Indicators{})
	if f.Process != "chattr" || f.FilePath != "/usr/bin/chattr" {
		t.Errorf("process %q path %q, want chattr at /usr/bin/chattr", f.Process, f.FilePath)
	}
}
