package triage

import "testing"

// An account added to a directory-wide administrators group is worth an
// analyst's look however the event reaches the analyzer; other group
// changes and removals are not this finding.
func TestDirectoryAdminGroupAddition(t *testing.T) {
	logSearch := func(code, message, group string) map[string]any {
		return map[string]any{
			"result": map[string]any{
				"host": "DC01", "source": "WinEventLog:Security", "EventCode": code,
				"_raw":       "LogName=Security EventCode=" + code + " Message=" + message + " Group Name: " + group,
				"Group_Name": group, "src_user": "hd2.mpike", "user": "svc_backup",
			},
			"search_name": "AD - Privileged Group Change", "trigger_time": 1758420877.0,
		}
	}
	checkFires(t, "alert.directory_admin_group_add", "other", "medium", []fireCase{
		{"Domain Admins, 4728", logSearch("4728", "A member was added to a security-enabled global group.", "Domain Admins"), true},
		{"Enterprise Admins, 4756", logSearch("4756", "A member was added to a security-enabled universal group.", "Enterprise Admins"), true},
		{"an ordinary group", logSearch("4728", "A member was added to a security-enabled global group.", "Finance-Readers"), false},
		{"removed from Domain Admins, 4729", logSearch("4729", "A member was removed from a security-enabled global group.", "Domain Admins"), false},
	})
}
