package triage

import "testing"

// Writing a consent into macOS's TCC database by SQL grants an app rights
// the user never gave; reading the database, or resetting consents with
// tccutil, does not.
func TestPrivacyDatabaseWrite(t *testing.T) {
	proc := func(args ...any) map[string]any {
		return map[string]any{"process": map[string]any{"name": "sqlite3", "executable": "/usr/bin/sqlite3", "args": args,
			"parent": map[string]any{"name": "bash"}}, "host": map[string]any{"os": map[string]any{"type": "macos"}}}
	}
	const db = "/Library/Application Support/com.apple.TCC/TCC.db"
	checkFires(t, "endpoint.privacy_database_write", "malware", "medium", []fireCase{
		{"an inserted consent", proc("sqlite3", db, "INSERT OR REPLACE INTO access VALUES('kTCCServiceScreenCapture','com.example.viewer',0,2,4,1,NULL,NULL,0,'UNUSED',NULL,0,1736452326);"), true},
		{"a user's own database updated", proc("sqlite3", "/Users/ana/Library/Application Support/com.apple.TCC/TCC.db", "UPDATE access SET auth_value=2 WHERE service='kTCCServiceMicrophone'"), true},
		{"an audit query", proc("sqlite3", db, "SELECT client, auth_value FROM access WHERE service='kTCCServiceScreenCapture'"), false},
		{"a consent reset", map[string]any{"process": map[string]any{"name": "tccutil", "args": []any{"tccutil", "reset", "ScreenCapture", "com.example.viewer"}}}, false},
	})
}

// A consent written for a program in a shared, temporary or hidden
// folder goes to no installed application; one for an app bundle's
// identifier does not weigh further.
func TestPrivacyGrantToAHiddenOrSharedProgram(t *testing.T) {
	grant := func(client string) map[string]any {
		return map[string]any{"process": map[string]any{"name": "sqlite3", "args": []any{"sqlite3", "/Library/Application Support/com.apple.TCC/TCC.db",
			"insert into access values ('kTCCServiceSystemPolicyAllFiles', '" + client + "', 1, 2, 4, 1)"}}}
	}
	checkFires(t, "endpoint.privacy_grant_to_hidden_or_shared_program", "malware", "medium", []fireCase{
		{"a hidden folder in /Users/Shared", grant("/Users/Shared/.cfgd/cfgd"), true},
		{"a hidden folder in a home", grant("/Users/ana/.local/bin/agent"), true},
		{"an installed app", grant("/Applications/Backup.app/Contents/MacOS/Backup"), false},
		{"a bundle identifier", grant("com.example.backup"), false},
	})
}
