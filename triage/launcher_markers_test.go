package triage

import "testing"

func TestAConfigurationToolIsReadFromTheLauncher(t *testing.T) {
	tests := []struct {
		name   string
		raw    map[string]any
		tool   string
		system bool
	}{
		{"parent command line", map[string]any{"filename": "visudo", "cmdline": "visudo -c -f /etc/sudoers.d/x", "user_name": "root",
			"parent_details": map[string]any{"parent_cmdline": "/usr/bin/python3 /usr/bin/salt-minion ProcessPayload(jid=1)"}}, "salt", true},
		{"parent working directory", map[string]any{"process": map[string]any{"name": "useradd", "executable": "/usr/sbin/useradd",
			"parent": map[string]any{"name": "python3", "cwd": "/home/deploy/.ansible/tmp/ansible-tmp-1700000000.1-22-3333/"}}, "user": map[string]any{"id": "0"}, "audit": map[string]any{"uid": "0"}}, "ansible", true},
		{"no marker", map[string]any{"filename": "visudo", "cmdline": "visudo -c", "user_name": "deploy",
			"parent_details": map[string]any{"parent_cmdline": "/bin/bash"}}, "", false},
	}
	for _, tt := range tests {
		f := normalize(Incident{IncidentType: "malware", RawData: tt.raw}, Indicators{})
		c := f.Endpoint.Context
		if c.AutomationTool != tt.tool || c.SystemContext != tt.system {
			t.Errorf("%s: tool %q system %v, want %q %v", tt.name, c.AutomationTool, c.SystemContext, tt.tool, tt.system)
		}
	}
}
