package triage

import "testing"

// TestABreakGlassSignInIsNeverRoutine holds that a break-glass account is
// read by its name, counts as an administrator, and that its use from
// outside the organisation with the password alone is raised, never
// credited as a sign-in where "nothing else is unusual".
func TestABreakGlassSignInIsNeverRoutine(t *testing.T) {
	signIn := map[string]any{
		"userPrincipalName":         "ea01-bg@example.onmicrosoft.com",
		"userDisplayName":           "Emergency Access 01",
		"ipAddress":                 "198.51.100.77",
		"status":                    map[string]any{"errorCode": 0},
		"riskLevelDuringSignIn":     "none",
		"authenticationRequirement": "singleFactorAuthentication",
		"deviceDetail":              map[string]any{"isManaged": false, "isCompliant": false},
	}
	f := normalize(Incident{IncidentType: kindLogin, RawData: signIn}, Indicators{})
	if !f.Identity.EmergencyAccess || !f.Identity.Admin {
		t.Fatalf("emergency %v admin %v", f.Identity.EmergencyAccess, f.Identity.Admin)
	}
	got := firedRules(kindLogin, f)
	if !got["identity.emergency_account_used"] || !got["identity.admin_password_only_unmanaged"] || got["identity.provider_no_risk"] {
		t.Errorf("fired %v", got)
	}

	admin := map[string]any{"userPrincipalName": "o.haddad@example.com", "directoryRolesOfUser": []any{"Global Administrator"}}
	if f := normalize(Incident{IncidentType: kindLogin, RawData: admin}, Indicators{}); !f.Identity.Admin || f.Identity.EmergencyAccess {
		t.Errorf("a Global Administrator by role: admin %v emergency %v", f.Identity.Admin, f.Identity.EmergencyAccess)
	}
	// The same sign-in from the organisation's own network is the account's
	// sanctioned test.
	known := f.Identity
	known.KnownNetwork = true
	if got := firedRules(kindLogin, Fields{Identity: known}); got["identity.emergency_account_used"] || got["identity.admin_password_only_unmanaged"] {
		t.Errorf("from the organisation's network fired %v", got)
	}
}

// An administrator's password-only sign-in is raised when nothing vouches
// for the device, whether the record calls it unmanaged or says nothing
// of it, and not from a managed or known device.
func TestAnAdminsPasswordOnlySignInNeedsAVouchedDevice(t *testing.T) {
	base := IdentityFields{Admin: true, Result: "success", SingleFactor: true, MFA: "not_required"}
	for name, tt := range map[string]struct {
		edit func(*IdentityFields)
		want bool
	}{
		"device not stated": {func(*IdentityFields) {}, true},
		"unmanaged device":  {func(f *IdentityFields) { f.DeviceUnmanaged = true }, true},
		"managed device":    {func(f *IdentityFields) { f.DeviceManaged = true }, false},
		"known device":      {func(f *IdentityFields) { f.DeviceKnown = true }, false},
	} {
		f := base
		tt.edit(&f)
		if got := firedRules(kindLogin, Fields{Identity: f})["identity.admin_password_only_unmanaged"]; got != tt.want {
			t.Errorf("%s: fired %v, want %v", name, got, tt.want)
		}
	}
}
