package triage

import "testing"

// A credential-theft tool on a host its device group designates for a red
// team's exercise, or run by a breach-and-attack simulation's own agent, is
// the exercise: the designation explains the tool however strongly it
// reads, even at critical severity. The same detection on an ordinary
// host, or with only a threat label naming a red-team tool, stays open.
func TestExerciseAssetExplainsTheAttackTooling(t *testing.T) {
	base := map[string]any{
		"title":              "HackTool:Win64/Mimikatz!pz",
		"category":           "CredentialAccess",
		"severity":           "high",
		"computerDnsName":    "ws-0417.corp.fabrikam.com",
		"rbacGroupName":      "Finance Workstations",
		"processCommandLine": `mimikatz.exe "privilege::debug" "sekurlsa::logonpasswords" exit`,
		"sha256":             "912018ab3c6b16b39ee84f17745ff0c80a33cee241013ec35d0281e40c0658d9",
	}
	alert := func(extra map[string]any) map[string]any { return withFields(base, extra) }
	checkClosed(t, "malware", []closeCase{
		{"ordinary host", alert(nil), false},
		{"red team device group", alert(map[string]any{"rbacGroupName": "Red Team - Engagement Hosts (isolated VLAN)"}), true},
		{"penetration test machine tag", alert(map[string]any{"machineTags": []any{"NonProduction", "PENTEST-AUTHORIZED"}}), true},
		{"host named for the red team", alert(map[string]any{"computerDnsName": "redteam-ws03.corp.fabrikam.com"}), true},
		{"simulation agent parent", alert(map[string]any{
			"parentProcessSigner": "AttackIQ, Inc.",
			"parentProcessPath":   `C:\Program Files\AttackIQ\FireDrill\ai_agent.exe`}), true},
		{"threat label naming a red-team tool", alert(map[string]any{"tags": []any{"RedTeamTool", "credential-theft"}}), false},
		{"description mentions testers", alert(map[string]any{
			"description": "Tools such as this are used by attackers and by penetration testers."}), false},
	})
	// The designation explains a critical detection too: exercise hosts
	// raise critical alerts by design. A critical alert whose only
	// benign reading is the text saying it was a test stays open.
	critical := analyze(t, Incident{IncidentType: "malware", Severity: "critical", RawData: alert(map[string]any{
		"severity": "critical", "rbacGroupName": "Red Team Range"})})
	if critical.Verdict.Classification != ClassBenign {
		t.Errorf("a critical detection on an exercise host stayed %s: %s", critical.Verdict.Classification, critical.Verdict.Reasoning)
	}
	said := analyze(t, Incident{IncidentType: "malware", Severity: "critical", RawData: alert(map[string]any{
		"severity": "critical", "comment": "Authorized penetration test, engagement PT-2291"})})
	if said.Verdict.Classification == ClassBenign {
		t.Errorf("a critical detection the text calls a test was closed: %s", said.Verdict.Reasoning)
	}
}

// Defender's standard hack-tool description ("Though often used by
// attackers, these tools are also used legitimately for security
// testing") is background, not the alert saying it was a test; a comment
// that does say so still counts.
func TestHackToolBoilerplateIsNoSecurityTest(t *testing.T) {
	raw := map[string]any{
		"title":       "HackTool:Win64/Mimikatz!pz",
		"description": "Readily available tools, such as hacking programs, can be used for unauthorized access. Though often used by attackers, these tools are also used legitimately for security testing.",
	}
	if f := normalize(Incident{IncidentType: "malware", RawData: raw}, Indicators{}); f.Alert.SecurityTesting {
		t.Error("the vendor's boilerplate read as a security test")
	}
	raw["comment"] = "Authorised penetration test, engagement PT-2025-11"
	if f := normalize(Incident{IncidentType: "malware", RawData: raw}, Indicators{}); !f.Alert.SecurityTesting {
		t.Error("an analyst's comment naming the penetration test was not read")
	}
}

// A host name designates an exercise only as the endpoint sensor's own
// host: on a web or network alert the host is the site contacted, which
// an attacker names as they like.
func TestOnlyTheSensorsHostNameDesignatesAnExercise(t *testing.T) {
	proxy := map[string]any{
		"action": "allowed", "url": "https://pentest-update.example/agent.exe", "host": "pentest-update.example",
		"user": "jlee@contoso.example", "category": "Newly Registered Domains",
	}
	if f := normalize(Incident{IncidentType: "network", RawData: proxy}, Indicators{}); f.Alert.ExerciseAsset != "" || f.Alert.SecurityTesting {
		t.Fatalf("a contacted site's name designated an exercise: %+v", f.Alert)
	}
}
