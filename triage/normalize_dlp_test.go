package triage

import "testing"

func TestReadDataFields(t *testing.T) {
	for _, tc := range []struct {
		name, payload string
		want          DataFields
	}{
		{"override to personal mail by a leaver", `{
			"serviceSource": "microsoftDataLossPrevention",
			"evidence": [{"userAccount": {"userPrincipalName": "b.reyes@contoso.com"}},
				{"recipientEmailAddress": "brian.reyes1988@gmail.com"}],
			"dlpDetails": {"sensitiveInfoTypes": [{"name": "Credit Card Number", "count": 5214}],
				"userOverride": true, "overrideJustification": "personal backup",
				"hrContext": "resignation submitted 2025-04-14"}}`,
			DataFields{User: "b.reyes@contoso.com", Destination: "brian.reyes1988@gmail.com", Matches: 5214,
				Personal: true, Override: true, PersonalReason: true, Departing: true}},
		{"encrypted to an allow-listed partner", `{
			"evidence": [{"userAccount": {"userPrincipalName": "payroll.ops@contoso.com"}},
				{"recipientEmailAddress": "implementation@adp.com"}],
			"dlpDetails": {"sensitiveInfoTypes": [{"count": 14}], "encryption": "Office 365 Message Encryption",
				"recipientDomainAllowList": ["adp.com"], "overrideJustification": "business justification: onboarding"}}`,
			DataFields{User: "payroll.ops@contoso.com", Destination: "implementation@adp.com", Matches: 14,
				Sanctioned: true, Encrypted: true, BusinessJustified: true}},
		{"an allow list cannot sanction a consumer mailbox", `{
			"user": "a@contoso.com", "recipient": "someone@gmail.com", "recipientDomainAllowList": ["gmail.com"]}`,
			DataFields{User: "a@contoso.com", Destination: "someone@gmail.com", Personal: true}},
		{"removable media", `{"user": "k@contoso.com", "destination": "Kingston DataTraveler (removable media)"}`,
			DataFields{User: "k@contoso.com", Destination: "Kingston DataTraveler (removable media)", Personal: true}},
		{"the instance is stated sanctioned", `{"user": "t@contoso.com", "instance_id": "contoso-github", "sanctioned_instance": "Yes"}`,
			DataFields{User: "t@contoso.com", Destination: "contoso-github", Sanctioned: true}},
		{"the instance is stated unsanctioned", `{"user": "t@contoso.com", "instance_id": "tm-dev-box", "sanctioned_instance": "No"}`,
			DataFields{User: "t@contoso.com", Destination: "tm-dev-box", Unsanctioned: true}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := readDataFields(newDoc(mustJSON(t, tc.payload))); got != tc.want {
				t.Errorf("got  %+v\nwant %+v", got, tc.want)
			}
		})
	}
}
