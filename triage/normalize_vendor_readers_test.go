package triage

import "testing"

func TestVendorDeterminationsAreFoldedAcrossVocabularies(t *testing.T) {
	tests := []struct {
		raw  map[string]any
		want string
	}{
		{map[string]any{"resolution_status": "STATUS_040_RESOLVED_FALSE_POSITIVE"}, "false_positive"},
		{map[string]any{"resolution_status": "resolved_false_positive"}, "false_positive"},
		{map[string]any{"resolution_status": "resolved_true_positive"}, "malicious"},
		{map[string]any{"resolution_status": "resolved_security_testing"}, "false_positive"},
		{map[string]any{"disposition_label": "Benign Positive - Suspicious But Expected"}, "false_positive"},
		{map[string]any{"disposition_label": "True Positive - Suspicious Activity"}, "malicious"},
		{map[string]any{"disposition": "disposition:3"}, "false_positive"},
		{map[string]any{"disposition": "disposition:6"}, ""},
		{map[string]any{"classification": "informationalExpectedActivity", "determination": "confirmedActivity"}, "false_positive"},
		{map[string]any{"determination": "securityPersonnel"}, "false_positive"},
		{map[string]any{"determination": "apt"}, "malicious"},
		{map[string]any{"determination": "notEnoughDataToValidate"}, ""},
		{map[string]any{"determination_value": "FALSE_POSITIVE"}, "false_positive"},
		{map[string]any{"investigationResult": "Benign True Positive"}, "false_positive"},
		{map[string]any{"classificationReason": "SuspiciousButExpected"}, "false_positive"},
		{map[string]any{"threatInfo": map[string]any{"mitigationStatus": "marked_as_benign"}}, "false_positive"},
		{map[string]any{"threatInfo": map[string]any{"mitigationStatus": "not_mitigated"}}, ""},
		{map[string]any{"riskState": "confirmedCompromised"}, "malicious"},
		{map[string]any{"riskState": "atRisk"}, ""},
	}
	for _, tt := range tests {
		if got, _ := vendorVerdict(newDoc(tt.raw)); got != tt.want {
			t.Errorf("%v: verdict %q, want %q", tt.raw, got, tt.want)
		}
	}
}

func TestVendorActionsAreFoldedAcrossVocabularies(t *testing.T) {
	tests := []struct {
		raw  map[string]any
		want string
	}{
		{map[string]any{"action": "drop"}, "blocked"},
		{map[string]any{"action": "reset-both"}, "blocked"},
		{map[string]any{"action": "sinkhole"}, "blocked"},
		{map[string]any{"sensor_action": "TERMINATE"}, "remediated"},
		{map[string]any{"action_pretty": "Prevented (Blocked)"}, "blocked"},
		{map[string]any{"action": "Not cleaned"}, ""},
		{map[string]any{"pattern_disposition_details": map[string]any{"killed": false, "quarantine_file": true}}, "blocked"},
		{map[string]any{"pattern_disposition_details": map[string]any{"blocking_unsupported_or_disabled": true, "detect": true}}, ""},
	}
	for _, tt := range tests {
		if got := vendorAction(newDoc(tt.raw)); got != tt.want {
			t.Errorf("%v: action %q, want %q", tt.raw, got, tt.want)
		}
	}
}

func TestDeviceTrustIsReadWhereverTheDeviceBlockSits(t *testing.T) {
	unmanaged := readIdentityFields(map[string]any{"userPrincipalName": "a@contoso.com", "deviceDetail": map[string]any{"isManaged": false, "isCompliant": false}})
	if !unmanaged.DeviceUnmanaged || unmanaged.DeviceManaged {
		t.Errorf("Entra device stated unmanaged: %+v", unmanaged)
	}
	managed := readIdentityFields(map[string]any{"userPrincipalName": "a@contoso.com", "deviceDetail": map[string]any{"isManaged": true, "isCompliant": false}})
	if !managed.DeviceManaged || managed.DeviceUnmanaged {
		t.Errorf("a managed, non-compliant device is still the organisation's: %+v", managed)
	}
	okta := readIdentityFields(map[string]any{"actor": map[string]any{"alternateId": "a@contoso.com"}, "device": map[string]any{"registered": true, "managed": false}})
	if !okta.DeviceKnown || !okta.DeviceUnmanaged {
		t.Errorf("Okta registered, unmanaged device: %+v", okta)
	}
	compliant := readIdentityFields(map[string]any{"user": "a@contoso.com", "device": map[string]any{"complianceState": "compliant"}})
	if !compliant.DeviceManaged {
		t.Errorf("compliance state not read: %+v", compliant)
	}
	silent := readIdentityFields(map[string]any{"user": "a@contoso.com", "registered": true})
	if silent.DeviceKnown {
		t.Errorf("a registration flag outside a device block is not the device's: %+v", silent)
	}
}

func TestOktaRiskAndThreatInsightAreRead(t *testing.T) {
	f := readIdentityFields(map[string]any{"debugContext": map[string]any{"debugData": map[string]any{"risk": "{reasons=Anomalous Location, level=HIGH}"}}})
	if f.RiskLevel != "high" {
		t.Errorf("risk text: level %q", f.RiskLevel)
	}
	f = readIdentityFields(map[string]any{"debugContext": map[string]any{"debugData": map[string]any{"threatSuspected": "true"}}})
	if f.RiskLevel != "medium" {
		t.Errorf("ThreatInsight: level %q", f.RiskLevel)
	}
	f = readIdentityFields(map[string]any{"debugContext": map[string]any{"debugData": map[string]any{
		"logOnlySecurityData": `{"risk":{"level":"LOW"},"behaviors":{"New Device":"POSITIVE","New IP":"NEGATIVE"}}`}}})
	if !f.DeviceNew || !f.KnownNetwork {
		t.Errorf("behaviours as an object: %+v", f)
	}
}

func TestALockoutIsAFailedSignIn(t *testing.T) {
	f := readIdentityFields(map[string]any{"eventType": "user.account.lock", "outcome": map[string]any{"result": "SUCCESS", "reason": "LOCKED_OUT"}})
	if f.Result != "failure" {
		t.Errorf("lockout read as %q", f.Result)
	}
}

func TestTestAndSimulationMarkersAcrossProducts(t *testing.T) {
	for _, raw := range []map[string]any{
		{"title": "[SAMPLE] Unusual console login", "service": map[string]any{"additionalInfo": map[string]any{"sample": true}}},
		{"service": map[string]any{"additionalInfo": map[string]any{"sample": true}}},
		{"OrgLevelPolicy": "Phishing simulation", "OrgLevelAction": "Allow"},
		{"isSimulation": true},
	} {
		if !readAlert(newDoc(raw)).SecurityTesting {
			t.Errorf("%v: the test marker was not read", raw)
		}
	}
	for _, raw := range []map[string]any{
		{"malware": map[string]any{"sample": true}},
		{"OrgLevelPolicy": "Tenant block list"},
		{"isSimulation": false},
	} {
		if readAlert(newDoc(raw)).SecurityTesting {
			t.Errorf("%v: read as a test", raw)
		}
	}
}

func TestATripOnRecordExplainsTheSignInFromAbroad(t *testing.T) {
	signIn := func(extra map[string]any) IdentityFields {
		raw := map[string]any{"userPrincipalName": "a@contoso.com", "ipAddress": "203.0.113.9", "location": map[string]any{"countryOrRegion": "Japan"}}
		for k, v := range extra {
			raw[k] = v
		}
		f, _ := normalizeSignIn(Incident{IncidentType: "suspicious_login", RawData: raw}, Indicators{})
		return f.Identity
	}
	for _, extra := range []map[string]any{
		{"travel_request": map[string]any{"id": "TRV-20431", "status": "Approved", "destination_country": "Japan"}},
		{"hrTravelRecord": "TRV-20431"},
		{"travelApproved": true},
	} {
		if !signIn(extra).ExpectedTravel {
			t.Errorf("%v: the trip on record was not read", extra)
		}
	}
	for _, extra := range []map[string]any{
		{"travel_request": map[string]any{"id": "TRV-20431", "status": "Approved", "destination_country": "Brazil"}},
		{"travel_request": map[string]any{"id": "TRV-20431", "status": "Rejected"}},
		{"travel_on_record": "none"},
		{"hrTravelRecord": "no travel on record"},
		{"impossibleTravel": true, "travelKmh": 4200},
	} {
		if signIn(extra).ExpectedTravel {
			t.Errorf("%v: read as expected travel", extra)
		}
	}
}

func TestAVerdictAfterAnalysisIsToldFromADetectionNamingItself(t *testing.T) {
	tests := []struct {
		raw             map[string]any
		verdict, source string
	}{
		{map[string]any{"classification": "TruePositive", "classificationReason": "SuspiciousActivity"}, "malicious", "analysed"},
		{map[string]any{"classification": "truePositive", "determination": "malware"}, "malicious", "analysed"},
		{map[string]any{"threatInfo": map[string]any{"analystVerdict": "true_positive", "confidenceLevel": "suspicious"}}, "malicious", "analysed"},
		{map[string]any{"attachment": map[string]any{"sandboxResult": "malicious"}}, "malicious", "analysed"},
		{map[string]any{"classification": "Malware"}, "malicious", "engine"},
		{map[string]any{"threatInfo": map[string]any{"confidenceLevel": "malicious"}}, "malicious", "engine"},
		{map[string]any{"classification": "FalsePositive", "classificationReason": "SuspiciousActivity"}, "false_positive", "analysed"},
		{map[string]any{"title": "x"}, "", ""},
	}
	for _, tt := range tests {
		v, src := vendorVerdict(newDoc(tt.raw))
		if v != tt.verdict || src != tt.source {
			t.Errorf("%v: %q from %q, want %q from %q", tt.raw, v, src, tt.verdict, tt.source)
		}
	}
}
