package triage

import "testing"

// An endpoint alert on the organisation's own routine (a recurring job
// with a history, software its management tool deployed) is closed; the
// same process with a job that has no history, or one that does something
// hostile, is not.
func TestEstablishedProvenanceClosesTheOrganisationsOwnRoutine(t *testing.T) {
	job := func(runs int) map[string]any {
		return map[string]any{
			"detection": "Archive tool compressing a file share",
			"process":   map[string]any{"name": "7z.exe", "command_line": `"C:\Program Files\7-Zip\7z.exe" a E:\archive\ledger.7z D:\Ledger`, "user": "CORP\\svc-archive", "parent": map[string]any{"name": "taskhostw.exe"}},
			"cron_job":  map[string]any{"recurrence": "Weekly on Sunday 03:00", "executions_total": runs},
		}
	}
	deployed := func(extra map[string]any) map[string]any {
		return withFields(map[string]any{
			"detection":            "Process captures keyboard input",
			"process":              map[string]any{"name": "dictate.exe", "path": `C:\ProgramData\Dictate\dictate.exe`, "user": "corp\\r.ahmed"},
			"signature":            map[string]any{"signed": true, "valid": true, "signer": "Dictate Software Ltd"},
			"install_record":       map[string]any{"deployed_by": "Microsoft Intune (required app assignment)"},
			"hosts_with_same_hash": 41,
		}, extra)
	}
	tests := []struct {
		name  string
		raw   map[string]any
		class string
	}{
		{"weekly job with a history", job(40), ClassBenign},
		{"job without a history", job(1), ClassUnknown},
		{"deployed signed program", deployed(nil), ClassBenign},
	}
	for _, tt := range tests {
		a := analyze(t, Incident{IncidentType: "malware", Severity: "medium", RawData: tt.raw})
		if a.Verdict.Classification != tt.class {
			t.Errorf("%s: %s, want %s (%s)", tt.name, a.Verdict.Classification, tt.class, a.Verdict.Reasoning)
		}
	}
	f := normalize(Incident{IncidentType: "malware", RawData: deployed(nil)}, Indicators{})
	if c := f.Endpoint.Context; c.OrgDeployment != "intune" || c.FleetHosts != 41 {
		t.Errorf("deployment %q on %d hosts, want intune on 41", c.OrgDeployment, c.FleetHosts)
	}
	hostile := deployed(map[string]any{"process": map[string]any{"name": "dictate.exe", "path": `C:\ProgramData\Dictate\dictate.exe`,
		"command_line": `dictate.exe & vssadmin delete shadows /all /quiet`}})
	if a := analyze(t, Incident{IncidentType: "malware", Severity: "medium", RawData: hostile}); a.Verdict.Classification == ClassBenign {
		t.Errorf("a deployed program deleting shadow copies was closed: %s", a.Verdict.Reasoning)
	}
}
