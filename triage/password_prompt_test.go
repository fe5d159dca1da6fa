package triage

import "testing"

// A script asking for the password in a dialog that hides the typing is
// the macOS stealers' way in; the organisation's management agent asking
// the same (a FileVault escrow prompt) is not, nor is a dialog that
// hides nothing.
func TestPasswordPromptDialog(t *testing.T) {
	prompt := map[string]any{
		"hostname": "MBP-KNAKAMURA", "user_name": "k.nakamura", "process_name": "osascript",
		"command_line":   `osascript -e display dialog "macOS needs to access System Settings. Please enter your password." with title "System Preferences" default answer "" with hidden answer`,
		"parent_name":    "Installer Helper",
		"parent_process": "/Volumes/NotionPro/Notion Pro.app/Contents/MacOS/Installer Helper",
	}
	checkFires(t, "endpoint.password_prompt", "malware", "medium", []fireCase{
		{"from an app on a mounted disk image", prompt, true},
		{"from the management agent", withFields(prompt, map[string]any{"parent_name": "jamf", "parent_process": "/usr/local/jamf/bin/jamf"}), false},
		{"a dialog that hides nothing", withFields(prompt, map[string]any{"command_line": `osascript -e display dialog "Your Mac will restart at 18:00" buttons {"OK"}`}), false},
	})
}
