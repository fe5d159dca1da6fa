package triage

import "regexp"

// securityEngineRe finds an endpoint protection engine at the place it is
// installed: Microsoft Defender's antivirus engine (under its platform
// folder or Program Files) and its EDR sensor, CrowdStrike's and
// SentinelOne's services. Each opens LSASS to scan and protect it.
var securityEngineRe = regexp.MustCompile(`windows defender\\platform\\[^\\]+\\msmpeng\.exe|program files\\windows defender\\msmpeng\.exe|windows defender advanced threat protection\\mssense\.exe|program files\\crowdstrike\\csfalconservice\.exe|program files\\sentinelone\\sentinel agent[^\\]*\\sentinelagent\.exe`)

// dumpMarkers are the traces of LSASS memory being written out, which no
// engine's scan leaves.
var dumpMarkers = []string{"minidump", "comsvcs", "procdump", "mimikatz", "sekurlsa", "nanodump", ".dmp", "rundll32", "createdump", "minidumpwritedump"}

// lsassRead reports LSASS memory accessed or dumped (see lsassAccess) and,
// when nothing shows the memory written out, the installed endpoint
// protection engine the alert shows opening it; a read that is the
// engine's is no credential dump. Sysmon's process-access event and EDR
// handle analytics flag every such read, the engine's own included.
func lsassRead(text string) (dumped bool, engine string) {
	if !lsassAccess(text) {
		return false, ""
	}
	if firstSubstring(text, dumpMarkers) == "" {
		engine = securityEngineRe.FindString(text)
	}
	return engine == "", engine
}
