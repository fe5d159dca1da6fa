package triage

import "testing"

// The system's temporary folders are user-writable; a tmp folder inside
// an application's own root-owned directory is not.
func TestSystemTmpIsWritableAppTmpIsNot(t *testing.T) {
	for p, want := range map[string]bool{
		"/tmp/.x/kworker":                                  true,
		"/var/tmp/payload.sh":                              true,
		"/private/tmp/update.pkg":                          true,
		"/bin/sh /tmp/install_script_agent7.sh":            true,
		"curl -o /tmp/a https://example.net/a":             true,
		"/Library/Application Support/JAMF/tmp/reissue.sh": false,
		"/opt/tomcat/tmp/work.txt":                         false,
		`C:\Windows\Temp\pmeA61C.tmp\winpmem_x64.sys`:      true,
	} {
		if got := writable(p); got != want {
			t.Errorf("%s: writable %v, want %v", p, got, want)
		}
	}
}
