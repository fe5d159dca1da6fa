package triage

import "testing"

// TestABruteForceDescriptionGivesItsExtent holds that Defender for
// Identity's description of a brute-force alert is read for the accounts
// attacked and for a password it says was guessed, and that a scanner its
// owners filed as one is not held to the guessing rules.
func TestABruteForceDescriptionGivesItsExtent(t *testing.T) {
	read := func(desc string) IdentityFields {
		raw := map[string]any{"title": "Suspected Brute Force attack (LDAP)", "serviceSource": "microsoftDefenderForIdentity", "description": desc}
		return identityOf(raw)
	}
	f := read("An actor on WS09 attempted to authenticate against DC02 using LDAP simple bind with 2 passwords against 412 accounts between 4:31 AM and 4:46 AM. The password 'Summer2025!' was successfully guessed for 2 accounts: Kara Franklin and Lab 07.")
	if f.TargetedUsers != 412 || f.Result != "success" {
		t.Errorf("read %d accounts and result %q, want 412 and success", f.TargetedUsers, f.Result)
	}
	f = read("Suspected brute force from VSCAN01. 14 accounts were attacked. 0 passwords were guessed successfully.")
	if f.TargetedUsers != 14 || f.Result == "success" {
		t.Errorf("read %d accounts and result %q, want 14 and no success", f.TargetedUsers, f.Result)
	}
	if f := read("No successful authentication was observed with a guessed password."); f.Result == "success" {
		t.Error("a negated guess read as a success")
	}

	scanner := map[string]any{"title": "Suspected Brute Force attack (Kerberos, NTLM)", "description": "An actor on BCS-TENABLE01 made 1,214 failed authentication attempts using NTLM against 37 accounts. The attempts failed.",
		"evidence":       []any{map[string]any{"roles": []any{"attacker"}, "rbacGroupName": "Security-Tools", "tags": []any{"VulnerabilityScanner", "Tenable Nessus Manager"}}},
		"additionalData": map[string]any{"Protocol": "Ntlm", "FailedAttempts": 1214.0, "SuccessfulAttempts": 0.0}}
	fields := normalize(Incident{IncidentType: kindLogin, RawData: scanner}, Indicators{})
	if !fields.Alert.ScannerSource {
		t.Fatal("a device tagged as a vulnerability scanner was not read as the organisation's scanner")
	}
	fired := firedRules(kindLogin, fields)
	for _, id := range []string{"identity.password_spray", "identity.sustained_guessing_failed", "identity.legacy_auth_failed"} {
		if fired[id] {
			t.Errorf("%s fired on the organisation's own scanner", id)
		}
	}
	fields.Alert.ScannerSource = false
	if !firedRules(kindLogin, fields)["identity.password_spray"] {
		t.Error("without the scanner tag the same alert is spraying")
	}
}
