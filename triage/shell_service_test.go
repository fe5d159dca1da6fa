package triage

import "testing"

// A service whose program is a shell echoing into a named pipe
// (getsystem) or into a batch file it runs (smbexec) is read as such; a
// service that registers an installed program, or a shell redirecting to
// a log file, is not.
func TestShellService(t *testing.T) {
	for image, want := range map[string]bool{
		`cmd.exe /c echo qhtbvl > \\.\pipe\qhtbvl`: true,
		`%COMSPEC% /Q /c echo cd  ^> \\127.0.0.1\C$\__output 2^>^&1 > %TEMP%\execute.bat & %COMSPEC% /Q /c %TEMP%\execute.bat & del %TEMP%\execute.bat`: true,
		`"C:\Program Files\Rapid7\Insight Agent\ir_agent.exe"`:  false,
		`cmd.exe /c echo started > C:\ProgramData\Acme\svc.log`: false,
	} {
		f := normalize(Incident{IncidentType: "malware", RawData: map[string]any{
			"result": map[string]any{"EventCode": "7045", "ServiceName": "svc", "ImagePath": image, "host": "WKS-1"},
		}}, Indicators{})
		if got := f.Endpoint.Behaviour.ShellService; got != want {
			t.Errorf("%s: shell service %v, want %v", image, got, want)
		}
	}
}
