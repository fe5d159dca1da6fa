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

// A vendor's updater that loaded a library the product lists with an empty
// signer is not a signed update: the empty signer is an unsigned file.
func TestUpdaterBesideAnUnsignedLibraryIsNotASignedUpdate(t *testing.T) {
	updater := map[string]any{
		"entityType": "Process", "fileName": "OneDriveStandaloneUpdater.exe",
		"filePath":           `C:\Program Files\Microsoft OneDrive`,
		"processCommandLine": `"C:\Program Files\Microsoft OneDrive\OneDriveStandaloneUpdater.exe" /silent`,
		"signer":             "Microsoft Corporation", "isValidSignature": true,
	}
	library := map[string]any{"entityType": "File", "fileName": "version.dll", "filePath": `C:\Program Files\Microsoft OneDrive`, "signer": "Microsoft Corporation"}
	alert := func(lib map[string]any) map[string]any {
		return map[string]any{"title": "An executable loaded an unexpected DLL", "severity": "Medium", "evidence": []any{updater, lib}}
	}
	checkFires(t, "endpoint.signed_vendor_update", "malware", "medium", []fireCase{
		{"the library signed by the same vendor", alert(library), true},
		{"the library with an empty signer", alert(withFields(library, map[string]any{"signer": nil})), false},
	})
}

// An unsigned copy of a system library in a user's folder, beside the
// signed program that loads it, is side-loading; the signed library, or
// one in the program's installed folder, is not.
func TestUnsignedSystemLibraryInAUserFolderIsSideLoading(t *testing.T) {
	program := map[string]any{
		"entityType": "Process", "fileName": "Teams.exe",
		"filePath":           `C:\Users\akoval\AppData\Local\Temp\tm`,
		"processCommandLine": `"C:\Users\akoval\AppData\Local\Temp\tm\Teams.exe"`,
		"signer":             "Microsoft Corporation",
	}
	library := map[string]any{"entityType": "File", "fileName": "version.dll", "filePath": `C:\Users\akoval\AppData\Local\Temp\tm`, "signer": nil}
	alert := func(lib map[string]any) map[string]any {
		return map[string]any{"title": "An executable loaded an unexpected DLL", "severity": "Medium", "evidence": []any{program, lib}}
	}
	checkFires(t, "endpoint.sideloaded_system_library", "malware", "medium", []fireCase{
		{"unsigned version.dll beside the program", alert(library), true},
		{"the path alone names the library", alert(map[string]any{"path": `C:\Users\akoval\AppData\Local\Temp\tm\version.dll`, "signatureStatus": "Unsigned"}), true},
		{"the library signed", alert(withFields(library, map[string]any{"signer": "Microsoft Windows"})), false},
		{"the library in an installed folder", alert(withFields(library, map[string]any{"filePath": `C:\Program Files\Contoso\Viewer`})), false},
		{"another library name", alert(withFields(library, map[string]any{"fileName": "contosoplugin.dll"})), false},
	})
}
