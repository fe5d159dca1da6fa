package triage

import "testing"

// TestTheAffectedHostIsAName holds that the affected host is read from a
// field holding a name, not the first string inside an object that
// shares the key's name (Elastic's Endpoint policy block).
func TestTheAffectedHostIsAName(t *testing.T) {
	raw := map[string]any{
		"Endpoint": map[string]any{"policy": map[string]any{"applied": map[string]any{"endpoint_policy_version": "37"}}},
		"host":     map[string]any{"hostname": "mon-prx-03", "os": map[string]any{"family": "debian"}},
		"process":  map[string]any{"name": "bash", "command_line": "bash -c 'echo ok'"},
	}
	if got := normalize(Incident{IncidentType: "malware", RawData: raw}, Indicators{}).Endpoint.Host; got != "mon-prx-03" {
		t.Errorf("host %q, want mon-prx-03", got)
	}
}
