package triage

import (
	"encoding/json"
	"testing"
)

// An Entra conditional access update that adds exclusions or stops
// enforcing, a Duo user set to bypass, or a policy allowing access
// without 2FA weakens MFA; an update that tightens the policy, and a
// Duo user left active, do not.
func TestMFAWeakened(t *testing.T) {
	policy := func(state string, excluded ...string) string {
		p := map[string]any{"state": state, "conditions": map[string]any{"users": map[string]any{
			"includeUsers": []any{"All"}, "excludeUsers": excluded}}}
		b, _ := json.Marshal(p)
		return string(b)
	}
	caUpdate := func(before, after string) map[string]any {
		return map[string]any{"activityDisplayName": "Update conditional access policy", "targetResources": []any{map[string]any{
			"displayName": "CA001 - Require MFA", "modifiedProperties": []any{map[string]any{
				"displayName": "ConditionalAccessPolicy", "oldValue": before, "newValue": after}}}}}
	}
	for name, tc := range map[string]struct {
		raw  map[string]any
		weak bool
	}{
		"exclusion added":    {caUpdate(policy("enabled", "u1"), policy("enabled", "u1", "u2")), true},
		"report-only":        {caUpdate(policy("enabled"), policy("enabledForReportingButNotEnforced")), true},
		"exclusion removed":  {caUpdate(policy("enabled", "u1", "u2"), policy("enabled", "u1")), false},
		"turned on":          {caUpdate(policy("enabledForReportingButNotEnforced"), policy("enabled")), false},
		"Duo bypass":         {map[string]any{"action": "user_update", "description": `{"status": "Bypass"}`}, true},
		"Duo active":         {map[string]any{"action": "user_update", "description": `{"status": "Active"}`}, false},
		"Duo policy":         {map[string]any{"action": "policy_update", "description": `{"new_user_policy": "Allow access without 2FA"}`}, true},
		"mail policy bypass": {map[string]any{"action": "deliver", "status": "Bypass", "policy": "Allow list"}, false},
	} {
		a := normalize(Incident{IncidentType: "suspicious_login", RawData: tc.raw}, Indicators{}).Alert
		if (a.MFAWeakened != "") != tc.weak {
			t.Errorf("%s: weakened %q, want %v", name, a.MFAWeakened, tc.weak)
		}
	}
}
