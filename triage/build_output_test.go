package triage

import "testing"

// A machine-learning verdict alone on a freshly compiled file in a
// project's build output is closed; the same verdict on a download, a
// family name in the build output, or hostile behaviour is not.
func TestMachineLearningVerdictOnBuildOutputIsClosed(t *testing.T) {
	base := map[string]any{
		"DetectName":          "Machine Learning",
		"DetectDescription":   "This file meets the machine learning-based on-sensor AV protection's high confidence threshold for malicious files.",
		"FileName":            "fleetctl.exe",
		"FilePath":            `\Device\HarddiskVolume3\src\corvid\fleet-sim\bin\fleetctl.exe`,
		"ParentImageFileName": "go.exe",
		"CommandLine":         `fleetctl.exe --broker 127.0.0.1:1883`,
		"ComputerName":        "CR-DEV-WS019",
	}
	alert := func(extra map[string]any) map[string]any { return withFields(base, extra) }
	checkClosed(t, "malware", []closeCase{
		{"go build output", alert(nil), true},
		{"dotnet publish folder", alert(map[string]any{"FilePath": `C:\Users\dev\source\repos\Payments\bin\Release\net8.0\publish\Payments.exe`}), true},
		{"a download", alert(map[string]any{"FilePath": `C:\Users\dev\Downloads\fleetctl.exe`}), false},
		// A linker writes the program into the project's own tree, beside
		// its sources, with no bin or build folder in between.
		{"linked into the project tree", alert(map[string]any{"FilePath": `C:\Users\dev\src\fleet-sim\cmd\fleetctl\fleetctl.exe`, "ParentImageFileName": "link.exe"}), true},
		{"a linker's name outside a source tree", alert(map[string]any{"FilePath": `C:\Users\dev\AppData\Local\Temp\fleetctl.exe`, "ParentImageFileName": "link.exe"}), false},
		{"a source tree written by an office program", alert(map[string]any{"FilePath": `C:\Users\dev\src\fleet-sim\cmd\fleetctl\fleetctl.exe`, "ParentImageFileName": "winword.exe"}), false},
		{"a family named", alert(map[string]any{"DetectDescription": "Trojan:Win32/Lumma detected"}), false},
		{"hostile behaviour", alert(map[string]any{"CommandLine": `fleetctl.exe & vssadmin delete shadows /all /quiet`}), false},
	})
}

// A family named only in a description's background sentence is no
// family detected: the verdict is still the machine-learning engine's
// alone, read as the malware analyzer reads detections.
func TestMachineLearningOnlyIgnoresBackgroundFamilies(t *testing.T) {
	raw := map[string]any{
		"DetectName":        "Machine Learning",
		"DetectDescription": "This file meets the machine learning-based on-sensor AV protection's high confidence threshold for malicious files. Ransomware operators often drop such files before encrypting.",
		"FileName":          "fleetctl.exe",
	}
	if f := normalize(Incident{IncidentType: "malware", RawData: raw}, Indicators{}); !f.Endpoint.Context.MachineLearningOnly {
		t.Error("a background sentence naming ransomware read as a named family")
	}
}
