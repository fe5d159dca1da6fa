package triage

import "testing"

// Azure's Activity Log in the resource-log schema (diagnostic settings)
// names no caller field: the principal comes from the token's claims. A
// snapshot's download URL is an export, and a zero count of open change
// requests is no change record.
func TestAzureResourceLogSnapshotExport(t *testing.T) {
	raw := map[string]any{
		"records": []any{map[string]any{
			"time":            "2025-12-03T03:01:47Z",
			"resourceId":      "/SUBSCRIPTIONS/5D1A/RESOURCEGROUPS/RG-IDENTITY/PROVIDERS/MICROSOFT.COMPUTE/SNAPSHOTS/DC01-SNAP",
			"operationName":   "MICROSOFT.COMPUTE/SNAPSHOTS/BEGINGETACCESS/ACTION",
			"category":        "Administrative",
			"callerIpAddress": "198.51.100.92",
			"identity": map[string]any{"claims": map[string]any{
				"http://schemas.xmlsoap.org/ws/2005/05/identity/claims/upn": "m.admin@example.com"}},
		}},
		"context": map[string]any{
			"198.51.100.92":                    map[string]any{"as_org": "Stark Industries Solutions Ltd"},
			"change_requests_open_for_rg_prod": 0.0,
		},
	}
	f := normalize(Incident{IncidentType: "cloud", RawData: raw}, Indicators{})
	c := f.Cloud
	if f.Format != "azure_activity" || c.Principal != "m.admin@example.com" || !c.Hosting || !c.Exfiltration || !c.NoChangeRecord {
		t.Fatalf("format %q, read %+v", f.Format, c)
	}
	if got := firedRules(kindGeneric, f); !got["cloud.export_by_untrusted_caller"] {
		t.Errorf("a snapshot exported from a rented server fired %v", got)
	}
	c.Hosting = false
	if got := firedRules(kindGeneric, Fields{Cloud: c}); got["cloud.export_by_untrusted_caller"] {
		t.Errorf("an export from an ordinary network fired %v", got)
	}
}
