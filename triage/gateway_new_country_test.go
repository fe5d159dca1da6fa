package triage

import "testing"

// A sign-in through the organisation's own security gateway that the
// provider calls a new country, or too fast a journey, from a device it
// knows is the gateway's egress node moving; from a device it has never
// seen, the gateway does not explain it.
func TestNewCountryThroughTheCorporateGateway(t *testing.T) {
	okta := func(newDevice string) map[string]any {
		return map[string]any{
			"eventType": "user.session.start", "actor": map[string]any{"alternateId": "sophie.hartley@brantwoodfreight.com", "type": "User"},
			"client":          map[string]any{"ipAddress": "165.225.240.108", "geographicalContext": map[string]any{"country": "Netherlands", "city": "Amsterdam"}},
			"outcome":         map[string]any{"result": "SUCCESS"},
			"securityContext": map[string]any{"asNumber": 53813.0, "asOrg": "zscaler  inc.", "isp": "zscaler  inc.", "isProxy": false},
			"debugContext": map[string]any{"debugData": map[string]any{
				"behaviors": "{New Geo-Location=POSITIVE, New Device=" + newDevice + ", New IP=POSITIVE, New Country=POSITIVE, Velocity=POSITIVE}",
			}},
		}
	}
	for device, want := range map[string]bool{"NEGATIVE": true, "POSITIVE": false} {
		f := normalize(Incident{IncidentType: kindLogin, RawData: okta(device)}, Indicators{})
		if !f.Identity.CorporateEgress || !f.Identity.NewCountry {
			t.Fatalf("New Device=%s: corporate egress %v, new country %v; want both", device, f.Identity.CorporateEgress, f.Identity.NewCountry)
		}
		if got := firedRules(kindLogin, f)["identity.travel_through_corporate_gateway"]; got != want {
			t.Errorf("New Device=%s: gateway explains the country %v, want %v", device, got, want)
		}
	}
}
