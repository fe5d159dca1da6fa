package triage

import "testing"

// TestAnUntrustedAddressIsNotAUsualOne holds that an assessment named for
// an untrusted or unknown address (Auth0's UntrustedIP) that lists the
// sign-in's address does not make it a known network, and that Auth0's
// deny-list hit in the anonymisers category is an anonymising network.
func TestAnUntrustedAddressIsNotAUsualOne(t *testing.T) {
	raw := map[string]any{"type": "s", "description": "Successful login", "ip": "89.187.185.171", "user_name": "l.brandt@keystoneops.io",
		"details": map[string]any{"riskAssessment": map[string]any{"assessments": map[string]any{
			"UntrustedIP": map[string]any{"confidence": "low", "code": "found_on_deny_list",
				"details": map[string]any{"ip": "89.187.185.171", "matches": "89.187.185.0/24", "source": "FIREHOL", "category": "anonymizers"}}}}}}
	f := identityOf(raw)
	if f.KnownNetwork {
		t.Error("an address on a deny list read as the user's usual network")
	}
	if !f.Anonymizer {
		t.Error("a deny-list hit among anonymisers was not read")
	}
	usual := map[string]any{"ipAddress": "203.0.113.7", "userPrincipalName": "a@example.com", "knownIps": []any{"203.0.113.7"}}
	if !identityOf(usual).KnownNetwork {
		t.Error("an address listed among the known ones was not read")
	}
}

// TestAMultiSessionDesktopIsTheOrganisationsEgress holds that a session
// from a multi-session edition of Windows, which only Azure Virtual
// Desktop runs, is the organisation's own network.
func TestAMultiSessionDesktopIsTheOrganisationsEgress(t *testing.T) {
	raw := map[string]any{"title": "Atypical travel", "serviceSource": "azureAdIdentityProtection", "evidence": []any{
		map[string]any{"ipAddress": "20.224.91.37", "countryLetterCode": "NL"},
		map[string]any{"deviceName": "hgl-avd-weu-07", "operatingSystem": "Windows 11 Enterprise multi-session", "protocol": "OAuth2:Authorize"}}}
	f := identityOf(raw)
	if !f.CorporateEgress || !f.KnownNetwork {
		t.Errorf("egress %v, known network %v; want both", f.CorporateEgress, f.KnownNetwork)
	}
	raw["evidence"] = []any{map[string]any{"deviceName": "HGL-LT-0522", "operatingSystem": "Windows 11 Enterprise"}}
	if identityOf(raw).KnownNetwork {
		t.Error("an ordinary Windows laptop read as the organisation's network")
	}
}

// TestASplunkNotableIsTitledByItsRuleAndItsGatewayCategoryRead holds that
// a Splunk notable's title is its rule's, not its drilldown's, and that a
// source category naming a security gateway is the organisation's egress.
func TestASplunkNotableIsTitledByItsRuleAndItsGatewayCategoryRead(t *testing.T) {
	raw := map[string]any{"rule_name": "Geographically Improbable Access Detected",
		"rule_title":      "Geographically improbable access for lmartin (Chicago, US -> Amsterdam, NL in 38 minutes)",
		"search_name":     "Access - Geographically Improbable Access Detected - Rule",
		"drilldown_name":  "View Okta events for $user$",
		"security_domain": "access", "user": "lmartin", "src": "165.225.212.41", "src_category": "zscaler_zen_egress"}
	f := normalize(Incident{IncidentType: kindLogin, RawData: raw}, Indicators{})
	if f.Alert.Title != raw["rule_title"] {
		t.Errorf("title %q", f.Alert.Title)
	}
	if !f.Identity.CorporateEgress {
		t.Error("a source categorised as the security gateway's egress was not read as the organisation's")
	}
}

// TestCognitosFeedbackIsTheOwnersReport holds that Amazon Cognito's event
// feedback "Invalid" from the user is the owner disowning the sign-in, and
// that compromised credentials it detected are leaked credentials.
func TestCognitosFeedbackIsTheOwnersReport(t *testing.T) {
	event := func(value, provider string, compromised bool) IdentityFields {
		raw := map[string]any{"AuthEvents": []any{map[string]any{"EventType": "SignIn", "EventResponse": "Pass",
			"EventRisk":        map[string]any{"RiskDecision": "AccountTakeover", "RiskLevel": "Medium", "CompromisedCredentialsDetected": compromised},
			"EventContextData": map[string]any{"IpAddress": "154.47.23.118", "City": "Vienna", "Country": "Austria"},
			"EventFeedback":    map[string]any{"FeedbackValue": value, "Provider": provider}}}}
		return identityOf(raw)
	}
	if !event("Invalid", "User", false).UserReported {
		t.Error("the user's Invalid feedback was not read as a report")
	}
	if event("Valid", "User", false).UserReported || event("Invalid", "Admin", false).UserReported {
		t.Error("a confirmation, or an admin's feedback, read as the owner's report")
	}
	lower := map[string]any{"event_feedback": map[string]any{"feedback_value": "Invalid", "provider": "User"}}
	if !identityOf(lower).UserReported {
		t.Error("feedback filed under lower-case names was not read")
	}
	if !event("", "", true).LeakedCredentials {
		t.Error("compromised credentials were not read")
	}
}
