package triage

import "testing"

// TestAnSSHDLineIsASignIn holds that OpenSSH's own log line, relayed as
// Wazuh's full_log with the earlier lines in previous_output, gives the
// sign-in's outcome, account, address and method, and the guessing from
// the same address before it; and that the Wazuh alert is titled by its
// rule rather than its agent.
func TestAnSSHDLineIsASignIn(t *testing.T) {
	raw := map[string]any{
		"rule":     map[string]any{"level": 12.0, "description": "Multiple authentication failures followed by a success.", "firedtimes": 1.0},
		"agent":    map[string]any{"id": "017", "name": "bastion-01", "ip": "10.0.1.15"},
		"full_log": "Jun 21 02:38:14 bastion-01 sshd[211847]: Accepted password for deploy from 193.32.162.74 port 51234 ssh2",
		"previous_output": "Jun 21 02:37:58 bastion-01 sshd[211839]: Failed password for deploy from 193.32.162.74 port 50988 ssh2\n" +
			"Jun 21 02:37:40 bastion-01 sshd[211826]: Failed password for invalid user ubuntu from 193.32.162.74 port 50702 ssh2\n" +
			"Jun 21 02:37:33 bastion-01 sshd[211820]: Failed password for invalid user admin from 193.32.162.74 port 50596 ssh2\n" +
			"Jun 21 02:37:25 bastion-01 sshd[211814]: Failed password for root from 193.32.162.74 port 50410 ssh2\n" +
			"Jun 21 02:37:18 bastion-01 sshd[211809]: Failed password for invalid user oracle from 193.32.162.74 port 50302 ssh2\n" +
			"Jun 21 02:37:11 bastion-01 sshd[211803]: Failed password for deploy from 10.0.1.9 port 50177 ssh2",
		"data": map[string]any{"srcip": "193.32.162.74", "dstuser": "deploy"},
	}
	fields := normalize(Incident{IncidentType: kindLogin, RawData: raw}, Indicators{})
	f := fields.Identity
	if f.Result != "success" || f.SourceIP != "193.32.162.74" || f.InternalSource || !f.SingleFactor {
		t.Errorf("read result %q from %q (internal %v, password alone %v)", f.Result, f.SourceIP, f.InternalSource, f.SingleFactor)
	}
	if f.FailedAttempts != 5 || f.TargetedUsers != 5 {
		t.Errorf("read %d failures on %d accounts from the address, want 5 and 5", f.FailedAttempts, f.TargetedUsers)
	}
	if fields.Alert.Title != "Multiple authentication failures followed by a success." {
		t.Errorf("title %q", fields.Alert.Title)
	}
	raw["full_log"] = "Jun 21 09:12:03 bastion-01 sshd[3101]: Accepted publickey for deploy from 10.0.4.20 port 40022 ssh2: ED25519 SHA256:abc"
	delete(raw, "previous_output")
	f = identityOf(raw)
	if f.SingleFactor || f.SourceIP != "10.0.4.20" || !f.InternalSource {
		t.Errorf("a key sign-in from the office read as password alone %v from %q", f.SingleFactor, f.SourceIP)
	}
}
