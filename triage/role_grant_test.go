package triage

import "testing"

// TestATenantRuleGrantedWithoutApprovalIsRaised holds that a role ruling
// the whole tenant, handed out with nothing on record approving it, is
// raised whatever the incident type; that the granting administrator's
// own roles do not make a scoped role a top one; and that an approved
// request or a PIM activation is a recorded approval.
func TestATenantRuleGrantedWithoutApprovalIsRaised(t *testing.T) {
	entra := func(role string, extra map[string]any) map[string]any {
		raw := map[string]any{
			"category": "RoleManagement", "activityDisplayName": "Add member to role", "result": "success",
			"initiatedBy": map[string]any{"user": map[string]any{"userPrincipalName": "j.alvarez@example.com", "ipAddress": "198.51.100.20"}},
			"targetResources": []any{map[string]any{"type": "User", "userPrincipalName": "l.chen@example.com",
				"modifiedProperties": []any{map[string]any{"displayName": "Role.DisplayName", "newValue": `"` + role + `"`}}}},
		}
		for k, v := range extra {
			raw[k] = v
		}
		return raw
	}
	okta := func(granted string) map[string]any {
		return map[string]any{"eventType": "user.account.privilege.grant", "outcome": map[string]any{"result": "SUCCESS"},
			"actor":        map[string]any{"alternateId": "iam.engineer@example.com", "detailEntry": map[string]any{"adminRoles": []any{"SUPER_ADMIN"}}},
			"debugContext": map[string]any{"debugData": map[string]any{"privilegeGranted": granted}}}
	}
	tests := []struct {
		name string
		raw  map[string]any
		want bool
	}{
		{"Entra global admin, typed unauthorized access", entra("Global Administrator", nil), true},
		{"Entra role through an approved access package", entra("Global Administrator", map[string]any{"additionalDetails": []any{
			map[string]any{"key": "AccessPackageAssignmentRequestId", "value": "5f0c"}, map[string]any{"key": "ApprovalStage1", "value": "Approved by s.berg@example.com"}}}), false},
		{"Entra role under a change", entra("Global Administrator", map[string]any{"resultReason": "Per CHG0041877"}), false},
		{"Okta super admin", okta("Super administrator"), true},
		{"Okta help desk role by a super admin", okta("Help Desk Administrator"), false},
	}
	for _, tt := range tests {
		f := normalize(Incident{IncidentType: "unauthorized_access", RawData: tt.raw}, Indicators{})
		if !f.Identity.PrivilegeGrant {
			t.Errorf("%s: the grant was not read", tt.name)
			continue
		}
		if got := firedRules(kindGeneric, f)["identity.top_role_granted_unapproved"]; got != tt.want {
			t.Errorf("%s: fired %v, want %v (top role %v, approved %v)", tt.name, got, tt.want, f.Identity.TopRoleGranted, f.Identity.GrantApproved)
		}
	}
}
