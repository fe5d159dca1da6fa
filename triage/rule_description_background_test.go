package triage

import "testing"

// TestARuleDescriptionsBackgroundIsNotWhatRan holds that a detection's
// description of what it looks for ("This rule identifies a logon of type
// NewCredentials (9) ..., which is also produced by Mimikatz
// sekurlsa::pth") names no tool that ran, wherever the description is
// filed and however often.
func TestARuleDescriptionsBackgroundIsNotWhatRan(t *testing.T) {
	const desc = "Adversaries may pass the hash to move laterally. This rule identifies a logon of type NewCredentials (9) through the seclogo logon process, which is also produced by Mimikatz sekurlsa::pth."
	if got := withoutBackground(desc); got != "" {
		t.Errorf("background kept: %q", got)
	}
	raw := map[string]any{
		"message": "Malicious Behavior Detection Alert: Potential Pass-the-Hash (PtH) Attempt",
		"rule":    map[string]any{"name": "Potential Pass-the-Hash (PtH) Attempt", "description": desc},
		"kibana":  map[string]any{"alert": map[string]any{"rule": map[string]any{"description": desc}}},
		"process": map[string]any{"name": "Ssms.exe", "parent": map[string]any{"name": "runas.exe", "command_line": `runas /netonly /user:PARTNER\dba "Ssms.exe"`}},
	}
	if f := normalize(Incident{IncidentType: "malware", RawData: raw}, Indicators{}); f.Endpoint.CredentialDump {
		t.Error("the description's background read as a credential dump")
	}
	raw["process"] = map[string]any{"name": "rundll32.exe", "command_line": `rundll32.exe C:\Windows\System32\comsvcs.dll, MiniDump 712 C:\Temp\l.dmp full`, "target": "lsass.exe"}
	if f := normalize(Incident{IncidentType: "malware", RawData: raw}, Indicators{}); !f.Endpoint.CredentialDump {
		t.Error("a real LSASS dump was not read")
	}
}

// TestWhatABehaviourCouldIndicateNamesNoFamily holds that a behavioural
// alert's note on what the behaviour can indicate ("This can indicate a
// dropper delivering a malicious payload") does not name the file a
// malware family; a detection name that does still counts.
func TestWhatABehaviourCouldIndicateNamesNoFamily(t *testing.T) {
	const desc = "A process dropped an executable file to disk and then launched it. This can indicate a dropper delivering a malicious payload."
	if got := withoutBackground(desc); got != "A process dropped an executable file to disk and then launched it. " {
		t.Errorf("kept %q", got)
	}
	alert := func(title string) map[string]any {
		return map[string]any{"title": title, "description": desc}
	}
	if name, term := firstDetection(detectionTexts(newDoc(alert("Suspicious file dropped and launched"))), malwareFamilyTerms); name != "" {
		t.Errorf("family %q read from %q", term, name)
	}
	if name, _ := firstDetection(detectionTexts(newDoc(alert("TrojanDropper:Win32/Emotet"))), malwareFamilyTerms); name == "" {
		t.Error("a family named in the detection was not read")
	}
}
