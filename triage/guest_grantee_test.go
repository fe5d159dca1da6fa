package triage

import "testing"

// A role given to an Entra guest invited from a consumer mailbox is a
// role given to that mailbox; Sentinel's Activity Log alerts name the
// operation as OperationNameValue, and a baseline of usual countries may
// be plain text.
func TestGuestFromConsumerMailboxIsAConsumerGrantee(t *testing.T) {
	for upn, want := range map[string]string{
		"jlee.dev_outlook.com#ext#@contoso.onmicrosoft.com": "jlee.dev@outlook.com",
		"a_b_partner.example#ext#@contoso.onmicrosoft.com":  "a_b@partner.example",
		"n.user@contoso.com": "n.user@contoso.com",
	} {
		if got := guestHomeAddress(upn); got != want {
			t.Errorf("%s: %s, want %s", upn, got, want)
		}
	}
	raw := map[string]any{"ExtendedProperties": map[string]any{
		"OperationNameValue": "MICROSOFT.AUTHORIZATION/ROLEASSIGNMENTS/WRITE",
		"Caller":             "m.admin@contoso.com", "CallerIpAddress": "102.89.47.210", "CallerIpCountry": "NG",
		"CallerUsualCountries30d": "PT, ES",
		"PrincipalUpn":            "jlee.dev_outlook.com#EXT#@contoso.onmicrosoft.com",
	}, "resourceId": "/subscriptions/1f3b/resourceGroups/rg-identity"}
	f := normalize(Incident{IncidentType: "alert", RawData: raw}, Indicators{})
	if f.Format != "azure_activity" || !f.Cloud.Persistence || !f.Cloud.ConsumerGrantee || !f.Cloud.NewCountry {
		t.Errorf("format %q, read %+v", f.Format, f.Cloud)
	}
	raw["ExtendedProperties"].(map[string]any)["PrincipalUpn"] = "r.partner_fabrikam.com#EXT#@contoso.onmicrosoft.com"
	raw["ExtendedProperties"].(map[string]any)["CallerIpCountry"] = "ES"
	if c := normalize(Incident{IncidentType: "alert", RawData: raw}, Indicators{}).Cloud; c.ConsumerGrantee || c.NewCountry {
		t.Errorf("a partner's guest from a usual country read %+v", c)
	}
}
