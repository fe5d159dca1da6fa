package triage

import (
	"maps"
	"testing"
)

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
		{map[string]any{"type": "phishing", "confidenceIndicator": "malicious"}, "malicious"},
		{map[string]any{"events": []any{map[string]any{"type": "account_warning", "name": "account_disabled_hijacked"}}}, "malicious"},
		{map[string]any{"events": []any{map[string]any{"type": "account_warning", "name": "account_disabled_password_leak"}}}, ""},
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
	for _, tt := range []struct {
		name string
		raw  map[string]any
		ok   func(IdentityFields) bool
	}{
		{"Entra device stated unmanaged", map[string]any{"userPrincipalName": "a@contoso.com", "deviceDetail": map[string]any{"isManaged": false, "isCompliant": false}},
			func(f IdentityFields) bool { return f.DeviceUnmanaged && !f.DeviceManaged }},
		{"a managed, non-compliant device is still the organisation's", map[string]any{"userPrincipalName": "a@contoso.com", "deviceDetail": map[string]any{"isManaged": true, "isCompliant": false}},
			func(f IdentityFields) bool { return f.DeviceManaged && !f.DeviceUnmanaged }},
		{"Okta registered, unmanaged device", map[string]any{"actor": map[string]any{"alternateId": "a@contoso.com"}, "device": map[string]any{"registered": true, "managed": false}},
			func(f IdentityFields) bool { return f.DeviceKnown && f.DeviceUnmanaged }},
		{"compliance state", map[string]any{"user": "a@contoso.com", "device": map[string]any{"complianceState": "compliant"}},
			func(f IdentityFields) bool { return f.DeviceManaged }},
		{"a registration flag outside a device block is not the device's", map[string]any{"user": "a@contoso.com", "registered": true},
			func(f IdentityFields) bool { return !f.DeviceKnown }},
	} {
		if f := readIdentityFields(tt.raw); !tt.ok(f) {
			t.Errorf("%s: %+v", tt.name, f)
		}
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
	for _, tt := range []struct {
		raw  map[string]any
		want bool
	}{
		{map[string]any{"title": "[SAMPLE] Unusual console login", "service": map[string]any{"additionalInfo": map[string]any{"sample": true}}}, true},
		{map[string]any{"service": map[string]any{"additionalInfo": map[string]any{"sample": true}}}, true},
		{map[string]any{"title": "[SAMPLE] Unusual console login"}, true},
		{map[string]any{"OrgLevelPolicy": "Phishing simulation", "OrgLevelAction": "Allow"}, true},
		{map[string]any{"isSimulation": true}, true},
		{map[string]any{"malware": map[string]any{"sample": true}}, false},
		{map[string]any{"OrgLevelPolicy": "Tenant block list"}, false},
		{map[string]any{"isSimulation": false}, false},
	} {
		if got := readAlert(newDoc(tt.raw)).SecurityTesting; got != tt.want {
			t.Errorf("%v: read as a test: %v, want %v", tt.raw, got, tt.want)
		}
	}
}

func TestATripOnRecordExplainsTheSignInFromAbroad(t *testing.T) {
	for _, tt := range []struct {
		extra map[string]any
		want  bool
	}{
		{map[string]any{"travel_request": map[string]any{"id": "TRV-20431", "status": "Approved", "destination_country": "Japan"}}, true},
		{map[string]any{"hrTravelRecord": "TRV-20431"}, true},
		{map[string]any{"travelApproved": true}, true},
		{map[string]any{"travel_request": map[string]any{"id": "TRV-20431", "status": "Approved", "destination_country": "Brazil"}}, false},
		{map[string]any{"travel_request": map[string]any{"id": "TRV-20431", "status": "Rejected"}}, false},
		{map[string]any{"travel_on_record": "none"}, false},
		{map[string]any{"hrTravelRecord": "no travel on record"}, false},
		{map[string]any{"impossibleTravel": true, "travelKmh": 4200}, false},
	} {
		raw := map[string]any{"userPrincipalName": "a@contoso.com", "ipAddress": "203.0.113.9", "location": map[string]any{"countryOrRegion": "Japan"}}
		maps.Copy(raw, tt.extra)
		f, _ := normalizeSignIn(Incident{IncidentType: "suspicious_login", RawData: raw}, Indicators{})
		if got := f.Identity.ExpectedTravel; got != tt.want {
			t.Errorf("%v: expected travel %v, want %v", tt.extra, got, tt.want)
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
