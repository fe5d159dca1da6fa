package triage

import "testing"

// A tunnel to a public relay is worth a look wherever it runs; run as the
// system account from a temporary folder it is a way back in.
func TestPublicRelayTunnels(t *testing.T) {
	user := map[string]any{
		"Image": `C:\Users\dev\AppData\Local\Programs\Microsoft VS Code\Code.exe`, "User": `TAMSIN\dev`,
		"CommandLine": `"C:\Users\dev\AppData\Local\Programs\Microsoft VS Code\Code.exe" tunnel --name dev-laptop`,
	}
	system := withFields(user, map[string]any{
		"Image": `C:\Windows\Temp\vsc\code.exe`, "User": `NT AUTHORITY\SYSTEM`,
		"CommandLine": `"C:\Windows\Temp\vsc\code.exe" tunnel --accept-server-license-terms --name dc01-upd --no-sleep`,
	})
	editor := withFields(user, map[string]any{"CommandLine": `"C:\Users\dev\AppData\Local\Programs\Microsoft VS Code\Code.exe" C:\src\tunnel-notes.md`})
	checkFires(t, "endpoint.public_relay_tunnel", "malware", "medium", []fireCase{
		{"a user's VS Code tunnel", user, true},
		{"ngrok exposing RDP", map[string]any{"CommandLine": `ngrok.exe tcp 3389`, "User": "dev"}, true},
		{"cloudflared installed as a service", map[string]any{"CommandLine": `cloudflared.exe service install eyJhIjoi`}, true},
		{"VS Code opening a file", editor, false},
	})
	checkFires(t, "endpoint.system_tunnel_from_user_folder", "malware", "medium", []fireCase{
		{"as the system account from Windows\\Temp", system, true},
		{"a user's VS Code tunnel", user, false},
	})
}
