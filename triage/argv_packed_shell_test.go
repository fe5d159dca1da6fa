package triage

import "testing"

// An argument vector is read as the command line where the payload gives
// no command line, never element by element; and a shell decoding an
// encoded string into an interpreter is a packed script.
func TestArgvCommandLineAndShellDecodedIntoInterpreter(t *testing.T) {
	jamf := map[string]any{"event": map[string]any{"path": "/bin/sh",
		"args": []any{"sh", "-c", "echo 6375726c202d6673 | xxd -p -r | sh"}}, "host": map[string]any{"hostname": "mac-1"}}
	e := normalize(Incident{IncidentType: "malware", RawData: jamf}, Indicators{}).Endpoint
	if e.CommandLine != "sh -c echo 6375726c202d6673 | xxd -p -r | sh" || !e.Behaviour.PackedScript {
		t.Errorf("argv read as %q, packed %v", e.CommandLine, e.Behaviour.PackedScript)
	}
	ecs := map[string]any{"process": map[string]any{"name": "wscript.exe",
		"command_line": `wscript.exe "C:\Users\a\Downloads\invoice.js"`,
		"args":         []any{"wscript.exe", `C:\Users\a\Downloads\invoice.js`}}, "host": map[string]any{"name": "wks-1"}}
	if e := normalize(Incident{IncidentType: "malware", RawData: ecs}, Indicators{}).Endpoint; e.CommandLine != `wscript.exe "c:\users\a\downloads\invoice.js"` {
		t.Errorf("the command line lost to the argument vector: %q", e.CommandLine)
	}
	for cmd, want := range map[string]bool{
		"echo aGVsbG8K | base64 -d | bash":               true,
		"openssl enc -d -aes-256-cbc -in x.bin | sh":     true,
		"base64 -d backup.tar.b64 > backup.tar":          false,
		"curl -fsSL https://get.example.dev/i.sh | bash": false,
	} {
		if got := packedInlineScriptRe.MatchString(cmd); got != want {
			t.Errorf("%s: packed %v, want %v", cmd, got, want)
		}
	}
}
