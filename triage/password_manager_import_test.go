package triage

import (
	"strings"
	"testing"
)

// A password manager reading the browser's saved passwords is its import;
// the same read by a program whose signature fails, or by an unknown
// program, is not explained by it.
func TestPasswordManagerImportExplainsBrowserStoreRead(t *testing.T) {
	fired := func(image, signature string) bool {
		raw := map[string]any{
			"tactic": "Credential Access", "technique": "Credentials from Web Browsers",
			"description":      `Process read C:\Users\akim\AppData\Local\Google\Chrome\User Data\Default\Login Data`,
			"filepath":         image,
			"cmdline":          `"` + image + `"`,
			"signature_status": signature,
			"parent_details":   map[string]any{"filename": "explorer.exe"},
		}
		a := analyze(t, Incident{IncidentType: "malware", Severity: "high", RawData: raw})
		return strings.Contains(a.Verdict.Reasoning, "endpoint.password_manager_import")
	}
	bitwarden := `C:\Users\akim\AppData\Local\Programs\Bitwarden\Bitwarden.exe`
	if !fired(bitwarden, "signed") {
		t.Error("Bitwarden's import was not recognised")
	}
	if fired(bitwarden, "invalid") {
		t.Error("a Bitwarden.exe whose signature fails was taken for the password manager")
	}
	if fired(`C:\Users\akim\AppData\Local\Temp\svchelper.exe`, "signed") {
		t.Error("an unknown program reading the store was taken for a password manager")
	}
}
