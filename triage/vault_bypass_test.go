package triage

import "testing"

// A vault-managed account used with no checkout since its password last
// changed is read from the vault's own times, however the vendor nests
// them; a checkout after the change, or a payload without both times, is
// not. A failed rotation is read beside it, and lowers the weight.
func TestVaultBypassComparesLastCheckoutWithLastPasswordChange(t *testing.T) {
	tests := []struct {
		name          string
		raw           map[string]any
		bypass        bool
		rotationFails bool
	}{
		{"checkout before the change", map[string]any{"additionalData": map[string]any{
			"last_password_retrieval": "2025-02-13T09:02:41Z", "last_password_change": "2025-02-13T13:02:55Z"}}, true, false},
		{"checkout as an object, rotation failed", map[string]any{"extra": map[string]any{
			"lastPasswordRetrieval": map[string]any{"by": "j.okoro", "time": "2025-01-06T14:10:22Z"},
			"lastPasswordChange":    "2025-01-06T18:00:00Z",
			"cpmRotationStatus":     "Last scheduled rotation failed: account locked out"}}, true, true},
		{"times in Unix milliseconds", map[string]any{"additionalData": map[string]any{
			"lastRetrieval": float64(1739437361000), "lastPasswordChange": float64(1739451775000)}}, true, false},
		{"checked out after the change", map[string]any{
			"lastCheckout": "2025-03-02T08:00:00Z", "passwordLastChanged": "2025-03-01T01:00:00Z"}, false, false},
		{"a password change alone", map[string]any{"userPrincipalName": "a@contoso.example", "lastPasswordChange": "2025-03-01T01:00:00Z"}, false, false},
	}
	for _, tt := range tests {
		a := normalize(Incident{IncidentType: "suspicious_login", RawData: tt.raw}, Indicators{}).Alert
		if (a.VaultBypass != "") != tt.bypass || a.VaultRotationFailed != tt.rotationFails {
			t.Errorf("%s: bypass %q, rotation failed %v", tt.name, a.VaultBypass, a.VaultRotationFailed)
		}
	}
	bypass := AlertFields{VaultBypass: "last checkout 2025-02-13T09:02:41Z, password changed 2025-02-13T13:02:55Z"}
	if got := firedRules(kindLogin, Fields{Alert: bypass}); !got["alert.vault_bypass"] || got["alert.vault_rotation_failed"] {
		t.Errorf("bypass fired %v", got)
	}
	bypass.VaultRotationFailed = true
	if got := firedRules(kindGeneric, Fields{Alert: bypass}); !got["alert.vault_bypass"] || !got["alert.vault_rotation_failed"] {
		t.Errorf("bypass with a failed rotation fired %v", got)
	}
}
