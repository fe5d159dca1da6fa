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

// engineReadsLsass returns the installed endpoint protection engine that
// the alert shows opening LSASS, when nothing shows its memory written
// out; "" otherwise. Sysmon's process-access event and EDR handle
// analytics flag every such read, the engine's own included.
func engineReadsLsass(text string) string {
	if !lsassAccess(text) || firstSubstring(text, dumpMarkers) != "" {
		return ""
	}
	return securityEngineRe.FindString(text)
}
