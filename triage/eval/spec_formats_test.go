package eval

import (
	"encoding/json"
	"testing"

	"github.com/vigil-soc/vigil/intake"
)

// claimsSpecFormat reports whether raw is shaped like one of the four
// webhook formats of the interface contract, as opposed to a vendor export
// that reaches the service through a connector or the incidents API.
func claimsSpecFormat(raw map[string]any) bool {
	has := func(k string) bool { _, ok := raw[k]; return ok }
	// A Splunk alert action always sends the triggering result; a notable
	// event exported from Enterprise Security names its search but is flat.
	return (has("search_name") && has("result")) || (has("metadata") && has("event")) ||
		(has("event_type") && has("data")) || (has("eventType") && has("creationTime"))
}

// TestWebhookShapedCasesAreWhatIntakeProduces keeps the set honest: a case
// written in a webhook format must be accepted by intake, and carry the
// incident type and severity intake would give the incident, so the
// analyzer is measured on what the service really hands it.
func TestWebhookShapedCasesAreWhatIntakeProduces(t *testing.T) {
	cases, err := Load(setDir)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, c := range cases {
		if !claimsSpecFormat(c.RawData) {
			continue
		}
		n++
		body, err := json.Marshal(c.RawData)
		if err != nil {
			t.Fatal(err)
		}
		a, err := intake.Parse(body, c.Source, nil)
		if err != nil {
			t.Errorf("%s: intake refuses it: %v", c.File, err)
			continue
		}
		if a.IncidentType != c.IncidentType || a.Severity != c.Severity {
			t.Errorf("%s: intake gives incident_type %q severity %q, the case says %q %q",
				c.File, a.IncidentType, a.Severity, c.IncidentType, c.Severity)
		}
	}
	if n < 30 {
		t.Errorf("only %d cases use the webhook formats, want at least 30", n)
	}
}
