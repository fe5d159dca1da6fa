package triage

import "testing"

// A listener that relays every connection to another host's service is a
// pivot, whichever tool makes it; socat serving a local file, or an ssh
// forward bound to the loopback, is not.
func TestPortRelayListener(t *testing.T) {
	proc := func(cmd string) map[string]any {
		return map[string]any{"process_name": "socat", "process_cmdline": cmd, "user": "mbrandt"}
	}
	checkFires(t, "endpoint.port_relay_listener", "malware", "medium", []fireCase{
		{"socat to a database", proc("socat TCP-LISTEN:15432,fork,reuseaddr TCP:10.40.12.7:5432"), true},
		{"a netsh port proxy", proc(`netsh.exe interface portproxy add v4tov4 listenport=3390 listenaddress=0.0.0.0 connectport=3389 connectaddress=10.1.2.3`), true},
		{"ssh forward on every interface", proc("ssh -N -L 0.0.0.0:8443:10.9.0.4:443 jump@bastion"), true},
		{"socat serving a file", proc("socat TCP-LISTEN:8080,fork SYSTEM:'cat /srv/status.txt'"), false},
		{"ssh forward on the loopback", proc("ssh -N -L 8443:10.9.0.4:443 jump@bastion"), false},
	})
}
