package triage

import "testing"

func TestADataLossIncidentFromAnUnknownProductIsReadAsOne(t *testing.T) {
	raw := map[string]any{
		"policy":      map[string]any{"name": "Customer data to personal cloud storage"},
		"destination": map[string]any{"domain": "drive.google.com", "account_type": "personal"},
		"file":        map[string]any{"name": "accounts.xlsx"},
	}
	for _, typ := range []string{"data_loss", "Data Loss Prevention", "dlp", "insider risk alert"} {
		if f := normalize(Incident{IncidentType: typ, RawData: raw}, Indicators{}); f.Shape != "dlp" {
			t.Errorf("%q: shape %q, want dlp", typ, f.Shape)
		}
	}
	if f := normalize(Incident{IncidentType: "alert", RawData: raw}, Indicators{}); f.Shape == "dlp" {
		t.Error("an untyped alert is not taken for data loss by its keys alone")
	}
	if f := normalize(Incident{IncidentType: "data_loss", RawData: map[string]any{"title": "x"}}, Indicators{}); f.Shape == "dlp" {
		t.Error("a data-loss type without a file, destination or policy is not read as one")
	}
}

func TestADepartureDeniedIsNoDeparture(t *testing.T) {
	tests := []struct {
		raw  map[string]any
		want bool
	}{
		{map[string]any{"EmploymentStatus": "active, no resignation on file"}, false},
		{map[string]any{"hr_status": "Resigned - serving notice"}, true},
		{map[string]any{"hr_context": map[string]any{"notice_given": "2025-11-10", "last_day": "2025-11-28"}}, true},
		{map[string]any{"hrStatus": "not leaving"}, false},
	}
	for _, tt := range tests {
		if got := departingUser(newDoc(tt.raw)); got != tt.want {
			t.Errorf("%v: %v, want %v", tt.raw, got, tt.want)
		}
	}
}

func TestRemovableMediaTheOrganisationIssuedIsItsOwnStorage(t *testing.T) {
	base := func(note string) map[string]any {
		return map[string]any{
			"fileName":    "ledger.xlsx",
			"destination": map[string]any{"type": "Removable Storage", "deviceSerialNumber": "SN-1", "encrypted": true},
			"inventory":   map[string]any{"SN-1": note},
		}
	}
	f := normalize(Incident{IncidentType: "data_loss", RawData: base("Company asset CA-USB-0001, hardware-encrypted")}, Indicators{})
	if f.Data.Personal || !f.Data.Sanctioned || !f.Data.Encrypted {
		t.Errorf("company-issued drive: personal %v sanctioned %v encrypted %v", f.Data.Personal, f.Data.Sanctioned, f.Data.Encrypted)
	}
	f = normalize(Incident{IncidentType: "data_loss", RawData: base("unknown device, not a company asset")}, Indicators{})
	if f.Data.Sanctioned {
		t.Error("a drive the register denies is not the organisation's storage")
	}
}
