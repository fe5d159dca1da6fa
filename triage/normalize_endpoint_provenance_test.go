package triage

import "testing"

func TestDataFilesAreNotCodeRunningFromThem(t *testing.T) {
	for _, p := range []string{
		`C:\Users\a\AppData\Local\Google\Chrome\User Data\Default\Network\Cookies`,
		`C:\Windows\Temp\x\Active Directory\ntds.dit`,
		`C:\Users\a\AppData\Roaming\Mozilla\Firefox\Profiles\x.default\key4.db`,
	} {
		if userWritablePath([]string{p}, "") != "" {
			t.Errorf("%s read as code in a user-writable folder", p)
		}
	}
	if userWritablePath([]string{`C:\Users\a\AppData\Local\Temp\loader.exe`}, "") == "" {
		t.Error("an executable in Temp is code in a user-writable folder")
	}
}

func TestSignerOrgIgnoresTheCertificateAuthority(t *testing.T) {
	for in, want := range map[string]string{
		`CN="Citrix Systems, Inc.", O="Citrix Systems, Inc.", L=Fort Lauderdale`: "citrix",
		"Notepad++": "notepad++",
		"DigiCert Trusted G4 Code Signing RSA4096 SHA384 2021 CA1": "",
	} {
		if got := signerOrg(in); got != want {
			t.Errorf("signerOrg(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestRemoteAccessToolIsNotReadInsideOrdinaryWords(t *testing.T) {
	if got := firstMarker("may indicate lateral movement activities", remoteAccessTools); got != "" {
		t.Errorf("remote access tool %q read from the word lateral", got)
	}
	if got := firstMarker(`c:\program files\atera networks\ateraagent\ateraagent.exe`, remoteAccessTools); got != "atera" {
		t.Errorf("Atera's agent not recognised: %q", got)
	}
}

func TestLogClearingInEachSpelling(t *testing.T) {
	for _, cmd := range []string{
		`wevtutil.exe cl Security`,
		`powershell -c "Clear-EventLog -LogName System,Application"`,
		`fsutil usn deletejournal /d c:`,
	} {
		if !logClearingRe.MatchString(cmd) {
			t.Errorf("%s: log clearing not read", cmd)
		}
	}
	if logClearingRe.MatchString(`wevtutil qe Security /c:10`) {
		t.Error("a log query read as log clearing")
	}
}

func TestRenamedToolIsNotTheSixtyFourBitBuild(t *testing.T) {
	read := func(name, orig string) string {
		d := newDoc(map[string]any{"process": map[string]any{"name": name, "pe": map[string]any{"original_file_name": orig}}})
		f := EndpointFields{Process: name}
		readEndpointProvenance(d, processFacts{}, &f)
		return f.Behaviour.Masquerade
	}
	if got := read("psexec64.exe", "psexec.exe"); got != "" {
		t.Errorf("PsExec64 read as a renamed %s", got)
	}
	if got := read("svchelper.exe", "rclone.exe"); got != "rclone.exe" {
		t.Errorf("renamed rclone not read: %q", got)
	}
}
