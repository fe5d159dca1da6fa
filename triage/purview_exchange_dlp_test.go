package triage

import "testing"

// purviewExchangeDLP is a Purview DLP audit record (RecordType 13) for an
// e-mail: the recipient in ExchangeMetaData.To, the counts in
// SensitiveInformation, an override in ExceptionInfo.
func purviewExchangeDLP(to, subject string, count int, exception map[string]any) map[string]any {
	raw := map[string]any{
		"Operation": "DlpRuleMatch", "RecordType": 13, "Workload": "Exchange", "UserId": "a.moreau@verdantia.example",
		"PolicyDetails": []any{map[string]any{
			"PolicyName": "U.S. PII - External Email",
			"Rules": []any{map[string]any{
				"RuleName": "SSN to external recipients",
				"ConditionsMatched": map[string]any{"SensitiveInformation": []any{map[string]any{
					"SensitiveInformationTypeName": "U.S. Social Security Number (SSN)", "Count": count, "Confidence": 85}}},
			}},
		}},
		"ExchangeMetaData": map[string]any{"From": "a.moreau@verdantia.example", "To": []any{to}, "Subject": subject},
	}
	if exception != nil {
		raw["ExceptionInfo"] = exception
	}
	return raw
}

// The recipient, the count and an override with a business justification
// are read from Purview's e-mail record; so is a subject that names the
// mail a personal copy.
func TestPurviewExchangeDLPRecordIsRead(t *testing.T) {
	payroll := normalize(Incident{IncidentType: "data_loss", RawData: purviewExchangeDLP("census@paylinehr.example", "Census PP21", 180,
		map[string]any{"Reason": "Override", "Justification": "Biweekly census to our payroll provider (ticket HR-PAY-0042)"})}, Indicators{})
	d := payroll.Data
	if d.Destination != "census@paylinehr.example" || d.Matches != 180 || !d.Override || !d.BusinessJustified || d.Personal {
		t.Errorf("payroll send read as %+v", d)
	}
	home := normalize(Incident{IncidentType: "data_loss", RawData: purviewExchangeDLP("amoreau.home@gmail.com", "personal backup", 3200, nil)}, Indicators{}).Data
	if !home.Personal || !home.PersonalReason || home.BusinessJustified || home.Override {
		t.Errorf("personal copy read as %+v", home)
	}
	checkClosed(t, "data_loss", []closeCase{
		{"business override to a provider", purviewExchangeDLP("census@paylinehr.example", "Census PP21", 180,
			map[string]any{"Reason": "Override", "Justification": "Business justification: payroll census, ref HR-PAY-004"}), true},
		{"override without a reason", purviewExchangeDLP("census@paylinehr.example", "Census PP21", 180,
			map[string]any{"Reason": "Override"}), false},
		{"personal copy", purviewExchangeDLP("amoreau.home@gmail.com", "personal backup", 3200, nil), false},
	})
}
