package triage

import "testing"

// dpkg unpacking a package from apt's cache replaces system binaries on
// every update; a dpkg run on a package fetched from the web by a pipe,
// or another program replacing the binary, is not that.
func TestPackageManagerUpdate(t *testing.T) {
	write := func(cmd string) map[string]any {
		return map[string]any{"event": map[string]any{"category": []any{"file"}, "action": "rename"},
			"file":    map[string]any{"path": "/usr/bin/sudo", "name": "sudo"},
			"process": map[string]any{"name": "dpkg", "command_line": cmd, "parent": map[string]any{"name": "python3", "command_line": "/usr/bin/python3 /usr/bin/unattended-upgrade"}}}
	}
	checkFires(t, "endpoint.package_manager_update", "malware", "high", []fireCase{
		{"an unattended upgrade", write("/usr/bin/dpkg --status-fd 11 --unpack --auto-deconfigure /var/cache/apt/archives/sudo_1.9.15p5_amd64.deb"), true},
		{"an rpm update from dnf's cache", write("/usr/bin/rpm -U /var/cache/dnf/baseos/packages/sudo-1.9.5p2.el9.x86_64.rpm"), true},
		{"a package from the web", write("/usr/bin/dpkg -i /tmp/sudo_patched.deb"), false},
		{"another program", write("/bin/cp /tmp/sudo /usr/bin/sudo"), false},
	})
}
