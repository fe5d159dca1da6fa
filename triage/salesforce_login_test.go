package triage

import "testing"

// A page of Salesforce LoginEvent records reads as a sign-in chain: the
// failed logins before the successful one are counted, and the success
// is judged with its own user and address.
func TestSalesforceLoginRecordsReadAsAChain(t *testing.T) {
	login := func(at, status, ip string) map[string]any {
		return map[string]any{
			"attributes": map[string]any{"type": "LoginEvent"},
			"EventDate":  at, "Username": "r.okafor@northwind-logistics.com", "UserId": "0055g00000Bx7QKAAZ",
			"LoginType": "Other Apex API", "Status": status, "SourceIp": ip, "CountryIso": "DE",
		}
	}
	raw := map[string]any{"totalSize": 4.0, "done": true, "records": []any{
		login("2025-05-14T02:11:07.000+0000", "Invalid Password", "185.220.101.47"),
		login("2025-05-14T02:11:19.000+0000", "Invalid Password", "185.220.101.47"),
		login("2025-05-14T02:11:31.000+0000", "Invalid Password", "185.220.101.47"),
		login("2025-05-14T02:12:02.000+0000", "Success", "185.220.101.47"),
	}}
	f := normalize(Incident{IncidentType: "unauthorized_access", RawData: raw}, ExtractIndicators(raw))
	if f.Shape != "identity" {
		t.Fatalf("shape %q, want identity", f.Shape)
	}
	id := f.Identity
	if id.Result != "success" || id.FailedAttempts != 3 || id.User != "r.okafor@northwind-logistics.com" || id.SourceIP != "185.220.101.47" {
		t.Errorf("read result %q, %d failures, user %q, address %q", id.Result, id.FailedAttempts, id.User, id.SourceIP)
	}
}
