package triage

import "strings"

// exerciseAssetKeys are where products and SIEM enrichment say what a host
// or an account is for: device groups and tags (Defender's rbacGroupName
// and machineTags, Falcon grouping tags, SentinelOne groups and sites,
// Cortex endpoint groups), directory OUs and group memberships, network
// segments and departments.
var exerciseAssetKeys = []string{
	"rbacgroupname", "machinetags", "devicetags", "hosttags", "sensortags", "groupingtags",
	"groups", "groupname", "hostgroup", "hostgroups", "devicegroup", "devicegroups", "endpointgroup", "endpointgroups",
	"sitename", "site", "policyname", "ou", "deviceou", "hostadou", "hostou", "organizationalunit", "distinguishedname",
	"hostvlan", "vlan", "segment", "networksegment", "department", "usergroups", "adgroups", "memberof", "tags",
}

// exerciseTeamTerms name a security exercise, as normKey folds them: a red,
// purple or penetration-testing team's hosts, or a breach-and-attack
// simulation's targets.
var exerciseTeamTerms = []string{"redteam", "purpleteam", "pentest", "penetrationtest", "bastarget", "breachandattack", "adversaryemulation"}

// exerciseToolTerms are breach-and-attack simulation frameworks whose own
// programs, paths or signers run the simulated attack, as normKey folds
// them.
var exerciseToolTerms = []string{"invokeatomictest", "atomicredteam", "attackiqinc", "programfilesattackiq", "programdataattackiq", "safebreach", "cymulate"}

// exerciseAsset returns what designates the alert's host or account for an
// authorised security exercise ("" when nothing does): a device group,
// tag, OU or segment named for a red, purple or penetration-testing team,
// or a breach-and-attack simulation framework running the activity. A tag
// that names a tool ("RedTeamTool", a threat-intelligence label) describes
// the detection, not the asset, and does not count.
func exerciseAsset(d *doc) string {
	for _, s := range d.strs(exerciseAssetKeys...) {
		k := normKey(s)
		if len(k) > 120 || containsAnyTerm(k, "tool", "framework", "malware", "implant", "c2") {
			continue
		}
		if containsAnyTerm(k, exerciseTeamTerms...) {
			return s
		}
	}
	for _, e := range d.entries {
		if !processValue(e) {
			continue
		}
		if s, ok := e.val.(string); ok && containsAnyTerm(normKey(s), exerciseToolTerms...) {
			return s
		}
	}
	return ""
}

// exerciseHost reports an endpoint alert's host whose own name says it
// is a red-, purple- or penetration-testing team's machine
// (REDTEAM-WS03): IT names hosts, and an intruder does not rename them.
// Only the sensor's host counts, never a host name elsewhere in the
// payload, which on a web or network alert is the site contacted.
func exerciseHost(host string) bool {
	return host != "" && containsAnyTerm(normKey(host), exerciseTeamTerms...)
}

// processValue reports whether an entry holds a process's name, path or
// command line (see aspectOf), its signer, or a process chain.
func processValue(e entry) bool {
	return aspectOf(e) != aspectNone || strings.Contains(e.key, "signer") || e.key == "parentchain" || e.key == "processchain"
}
