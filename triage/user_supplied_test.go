package triage

import "testing"

// A user's own classification of a message (Gmail's
// user_spam_classification when they report it) is neither the product's
// verdict on the alert nor the gateway's threat type; the product's own
// fields still are.
func TestUserClassificationIsNotTheProducts(t *testing.T) {
	reported := map[string]any{
		"message_info": map[string]any{
			"subject":                  "Invoice INV-88214 is awaiting your approval",
			"source":                   map[string]any{"address": "do_not_reply@acme.coupahost.example"},
			"is_spam":                  false,
			"spam_info":                map[string]any{"disposition": "user_marked_phishing"},
			"user_spam_classification": "phishing",
		},
	}
	f := normalize(Incident{IncidentType: "phishing", RawData: reported}, Indicators{})
	if f.Alert.VendorVerdict == "malicious" || f.Email.ThreatType == "phish" {
		t.Errorf("the user's report read as the product's verdict: vendor %q, threat %q", f.Alert.VendorVerdict, f.Email.ThreatType)
	}
	flagged := map[string]any{"message_info": map[string]any{"spam_info": map[string]any{"classification": "phishing"}}}
	if got := normalize(Incident{IncidentType: "phishing", RawData: flagged}, Indicators{}).Email.ThreatType; got != "phish" {
		t.Errorf("the product's own classification read as %q", got)
	}
}
