package triage

import "testing"

// Entra Connect's password-hash sync, reported as DCSync by a detector
// that has not learned the sync server, is closed; the connector account
// replicating from another machine, or asking for krbtgt, is not, and
// neither is an unrelated alert on the sync server.
func TestEntraConnectPasswordHashSyncIsNotDCSync(t *testing.T) {
	base := map[string]any{
		"title":           "Suspected DCSync attack (replication of directory services)",
		"mitreTechniques": []any{"T1003.006"},
		"description":     "MSOL_3b7e91c2d4a6 sent 96 replication requests from SYNC-AADC02 to DC02.",
		"evidence": []any{
			map[string]any{"userAccount": map[string]any{"accountName": "MSOL_3b7e91c2d4a6", "domainName": "FABRIKAM"}},
			map[string]any{"deviceDnsName": "sync-aadc02.fabrikam.local", "roles": []any{"attacker"}},
			map[string]any{"deviceDnsName": "dc02.fabrikam.local", "roles": []any{"destination"}},
		},
	}
	alert := func(extra map[string]any) map[string]any { return withFields(base, extra) }
	checkClosed(t, "suspicious_login", []closeCase{
		{"sync server replicating", alert(nil), true},
		{"sync process named, krbtgt ruled out", alert(map[string]any{
			"description": "User MSOL_3b7e91c2d4a6 sent replication requests to DC02 (krbtgt not requested).",
			"process":     `C:\Program Files\Microsoft Azure AD Sync\Bin\miiserver.exe`, "evidence": nil}), true},
		{"connector account from a workstation", alert(map[string]any{
			"description": "MSOL_3b7e91c2d4a6 sent 2 replication requests from FIN-WS-0231 to DC02.",
			"evidence":    []any{map[string]any{"deviceDnsName": "fin-ws-0231.fabrikam.local"}}}), false},
		{"krbtgt asked for", alert(map[string]any{
			"replicatedObjects": "krbtgt, Administrator"}), false},
		{"another account on the sync server", alert(map[string]any{
			"description": "svc_backup sent 2 replication requests from SYNC-AADC02 to DC02.",
			"evidence":    []any{map[string]any{"deviceDnsName": "sync-aadc02.fabrikam.local"}}}), false},
	})
	f := normalize(Incident{IncidentType: "malware", RawData: map[string]any{
		"title": "Cobalt Strike beacon", "hostname": "SYNC-AADC02", "user": "MSOL_3b7e91c2d4a6"}}, Indicators{})
	if f.Alert.DirectorySync {
		t.Error("a beacon on the sync server read as password-hash sync")
	}
}
