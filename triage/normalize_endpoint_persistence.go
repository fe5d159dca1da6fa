package triage

import (
	"path"
	"regexp"
	"strconv"
	"strings"
)

// persistenceEventIDs are the Windows event IDs of persistence being set
// up, which a log search forwards by EventCode: a scheduled task created
// or changed (4698, 4702) and a service installed (4697, 7045).
var (
	persistenceEventIDs   = []string{"4698", "4702", "4697", "7045"}
	persistenceEventCodes = setOf(persistenceEventIDs...)
)

// windowsEventCode is the Windows event ID a log search or event
// forwarder names (Splunk's EventCode, the event's own EventID), as text
// whether it came as text or as a number, or "".
func windowsEventCode(d *doc) string {
	if s := strings.TrimSpace(d.scalarStr("eventcode", "eventid")); s != "" {
		return s
	}
	if n, ok := d.number("eventcode", "eventid"); ok && n > 0 && n == float64(int(n)) {
		return strconv.Itoa(int(n))
	}
	return ""
}

// windowsSystemProcesses are the names of processes Windows itself runs,
// only ever from System32 (or SysWOW64, or the Windows folder for
// explorer.exe); malware takes their names to pass in a process list.
var windowsSystemProcesses = setOf("svchost.exe", "lsass.exe", "csrss.exe", "services.exe", "smss.exe", "winlogon.exe",
	"wininit.exe", "spoolsv.exe", "taskhostw.exe", "dllhost.exe", "conhost.exe", "explorer.exe", "lsm.exe",
	"sihost.exe", "ctfmon.exe", "runtimebroker.exe", "searchindexer.exe", "wuauclt.exe", "dwm.exe")

// runKeyRe finds a Windows Run or RunOnce registry key, with or without
// the value under it.
var runKeyRe = regexp.MustCompile(`(?m)^(hk(cu|lm|ey_current_user|ey_local_machine)|\\registry\\)\S*\\software\\(wow6432node\\)?microsoft\\windows\\currentversion\\run(once)?(\\|$)`)

// persistenceEvent reports an alert about persistence being set up: a
// log search forwarding a Windows event that does so, or a registry
// event on a Run key.
func persistenceEvent(d *doc) bool {
	return persistenceEventCodes[windowsEventCode(d)] || runKeyRe.MatchString(d.text)
}

// misplacedSystemName returns the name of a Windows system process that
// the alert's program carries while running from a user-writable folder,
// or "".
func misplacedSystemName(f *EndpointFields) string {
	if !windowsSystemProcesses[f.Process] || !f.UserWritable {
		return ""
	}
	// The path read must be the program's own: the file itself, or a
	// folder holding it, not another file the alert names.
	p := strings.TrimSuffix(slashPath(strings.Trim(strings.TrimSpace(f.FilePath), `"`)), "/")
	if p == "" || !writable(p+"/") || strings.Contains(path.Base(p), ".") && path.Base(p) != f.Process {
		return ""
	}
	return f.Process
}

// userAppleAgentRe finds a launch agent labelled as Apple's in a user's own
// LaunchAgents folder: Apple installs its agents under /System/Library, so
// one here carries the name to pass in a list of launch items.
var userAppleAgentRe = regexp.MustCompile(`(?m)^/users/[^/\n]+/library/launchagents/(com\.apple\.[^/\n]+)\.plist$`)

// userProgramRe finds a program path in a user's home folder, outside the
// applications a user may install there: the launch agent's program.
var userProgramRe = regexp.MustCompile(`(?m)^/users/[^/\n]+/(?:[^\n]*/)?[^/\n.]+$`)

// misplacedAppleAgent returns the Apple label of a launch agent in a
// user's LaunchAgents folder that starts a program from the user's home
// folder, or "".
func misplacedAppleAgent(d *doc) string {
	m := userAppleAgentRe.FindStringSubmatch(d.text)
	if m == nil {
		return ""
	}
	for _, p := range userProgramRe.FindAllString(d.text, -1) {
		if !strings.Contains(p, "/applications/") && !strings.Contains(p, ".app/") {
			return m[1]
		}
	}
	return ""
}
