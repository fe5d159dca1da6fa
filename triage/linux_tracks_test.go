package triage

import "testing"

func TestAShellsHistoryWipedIsLogClearing(t *testing.T) {
	tests := map[string]bool{
		"history -c":                          true,
		"unset HISTFILE; ./run":               true,
		"export HISTFILE=/dev/null":           true,
		"rm -f /root/.bash_history":           true,
		"shred -u /var/log/auth.log":          true,
		"ln -sf /dev/null ~/.zsh_history":     true,
		"wevtutil cl Security":                true,
		"history | grep ssh":                  false,
		"logrotate -f /etc/logrotate.conf":    false,
		"rm -rf /var/log/app/old-release.tgz": false,
	}
	for cmd, want := range tests {
		if got := logClearingRe.MatchString(cmd); got != want {
			t.Errorf("%q: %v, want %v", cmd, got, want)
		}
	}
}

func TestAProgramUnderAKernelThreadsName(t *testing.T) {
	tests := []struct {
		process, path, want string
	}{
		{"kswapd0", "/dev/shm/.x/kswapd0", "kswapd0"},
		{"kworker/0:1", "/tmp/kworker", "kworker/0:1"},
		{"[kthreadd]", "/var/tmp/.k/kthreadd", "kthreadd"},
		{"kswapd0", "", ""},              // the kernel's own thread has no file
		{"kswapd0", "/proc/95/exe", ""},  // nor is /proc a program
		{"nginx", "/usr/sbin/nginx", ""}, // an ordinary program
		{"kubelet", "/usr/bin/kubelet", ""},
	}
	for _, tt := range tests {
		if got := kernelThreadDisguise(tt.process, tt.path); got != tt.want {
			t.Errorf("%s at %q: %q, want %q", tt.process, tt.path, got, tt.want)
		}
	}
	f := normalize(Incident{IncidentType: "malware", RawData: map[string]any{
		"process": map[string]any{"name": "kswapd0", "executable": "/dev/shm/.x/kswapd0"},
	}}, Indicators{})
	if f.Endpoint.Behaviour.KernelThreadName != "kswapd0" {
		t.Errorf("an EDR's process record: kernel thread name %q, want kswapd0", f.Endpoint.Behaviour.KernelThreadName)
	}
}

func TestSharedMemoryIsUserWritable(t *testing.T) {
	f := normalize(Incident{IncidentType: "malware", RawData: map[string]any{
		"process": map[string]any{"name": "x", "executable": "/dev/shm/.x/x"},
	}}, Indicators{})
	if !f.Endpoint.UserWritable {
		t.Error("/dev/shm is writable by every user")
	}
}
