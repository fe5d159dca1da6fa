package triage

import "testing"

// Google's Reports API files a DLP rule's trigger under the "rules"
// application, with the matched detectors as nested records
// (multiMessageValue): it is a data-loss alert, with its recipients and
// the largest detector count read.
func TestGoogleDLPRuleEventIsDataLoss(t *testing.T) {
	param := func(name string, value any) map[string]any { return map[string]any{"name": name, "value": value} }
	detector := func(id, count string) map[string]any {
		return map[string]any{"parameter": []any{param("detector_id", id), param("matched_count", count)}}
	}
	raw := map[string]any{
		"kind":  "admin#reports#activity",
		"id":    map[string]any{"applicationName": "rules", "time": "2025-06-02T21:18:44.512Z"},
		"actor": map[string]any{"callerType": "USER", "email": "dana.whitfield@bellmontcare.org"},
		"events": []any{map[string]any{"type": "rule_trigger_type", "name": "rule_trigger", "parameters": []any{
			param("rule_name", "DLP - PII shared outside domain"),
			param("resource_title", "Payroll_Register_2025-05_all_staff.xlsx"),
			map[string]any{"name": "resource_recipients", "multiValue": []any{"dana.whitfield.home@gmail.com"}},
			map[string]any{"name": "matched_detectors", "multiMessageValue": []any{
				detector("US_SOCIAL_SECURITY_NUMBER", "318"), detector("FINANCIAL_ACCOUNT_NUMBER", "309"),
			}},
		}}},
	}
	f := normalize(Incident{IncidentType: "data_exfiltration", RawData: raw}, ExtractIndicators(raw))
	if f.Shape != "dlp" {
		t.Fatalf("shape %q, want dlp", f.Shape)
	}
	if f.Data.Destination != "dana.whitfield.home@gmail.com" || f.Data.Matches != 318 || !f.Data.Personal {
		t.Errorf("read destination %q, %d matches, personal %v", f.Data.Destination, f.Data.Matches, f.Data.Personal)
	}
}
