package triage

import "testing"

func TestActorActionPairsAndOfficeRoot(t *testing.T) {
	tests := []struct {
		name            string
		raw             map[string]any
		process, parent string
		office          bool
	}{
		{"document actor drops a program", map[string]any{
			"actor_process_image_name":           "EXCEL.EXE",
			"action_process_image_name":          "dropper.exe",
			"action_process_image_command_line":  `C:\Users\u\AppData\Roaming\dropper.exe /i`,
			"causality_actor_process_image_name": "EXCEL.EXE",
		}, "dropper.exe", "excel.exe", true},
		{"system binary under an Office root, parent not given", map[string]any{
			"actor_process_image_name":           "rundll32.exe",
			"actor_process_command_line":         `C:\Windows\SysWOW64\rundll32.exe`,
			"causality_actor_process_image_name": "WINWORD.EXE",
		}, "rundll32.exe", "", true},
		{"program under an Office root is not the document's child", map[string]any{
			"actor_process_image_name":           "teams.exe",
			"actor_process_command_line":         `"C:\Program Files\Teams\teams.exe"`,
			"causality_actor_process_image_name": "OUTLOOK.EXE",
		}, "teams.exe", "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := readEndpointFields(newDoc(tt.raw), ExtractIndicators(tt.raw))
			if f.Process != tt.process || f.Parent != tt.parent || f.OfficeParent != tt.office {
				t.Errorf("process %q parent %q office %v, want %q %q %v", f.Process, f.Parent, f.OfficeParent, tt.process, tt.parent, tt.office)
			}
		})
	}
}
