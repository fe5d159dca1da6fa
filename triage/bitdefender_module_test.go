package triage

import "testing"

// GravityZone's Event Push names what raised an event only in its module:
// "ransomware-mitigation" is files being encrypted; "av" or "hd" name an
// engine, not a verdict.
func TestGravityZoneModuleNamesTheDetection(t *testing.T) {
	event := func(module string) map[string]any {
		return map[string]any{"jsonrpc": "2.0", "method": "addEvents", "params": map[string]any{"events": []any{map[string]any{
			"module": module, "computer_name": "TMP-FS01", "attack_type": "remote", "item_count": "1842", "attack_source": "10.14.2.77",
		}}}}
	}
	if name, _ := firstDetection(detectionTexts(newDoc(event("ransomware-mitigation"))), ransomwareTerms); name == "" {
		t.Error("ransomware mitigation not read as ransomware")
	}
	for _, module := range []string{"av", "hd", "avc", "new-incident"} {
		d := detectionTexts(newDoc(event(module)))
		for _, terms := range [][]string{ransomwareTerms, malwareFamilyTerms, genericMalwareTerms} {
			if name, term := firstDetection(d, terms); name != "" {
				t.Errorf("module %q read as %q", module, term)
			}
		}
	}
}
