package triage

import "testing"

// A Wiz issue is read as a cloud record of the platform it names, about
// the identity it names, with the caller's network from its enrichment.
func TestWizIssueReadAsCloudRecord(t *testing.T) {
	raw := map[string]any{
		"issue":   map[string]any{"id": "3b9e1f7a", "status": "OPEN", "severity": "HIGH"},
		"control": map[string]any{"name": "SES sending enabled by access key from unusual network"},
		"resource": map[string]any{"name": "ci-static-site-deployer", "type": "USER_ACCOUNT", "cloudPlatform": "AWS",
			"id": "arn:aws:iam::604911238771:user/ci-static-site-deployer"},
		"threatDetectionDetails": map[string]any{"actor": map[string]any{
			"accessKeyId": "AKIAYZ3Q7EXAMPLE4KQ2", "sourceIp": "5.188.206.14", "asn": "AS49505 Selectel (hosting)"}},
		"related_findings": []any{map[string]any{"type": "SECRET", "title": "AWS access key committed to public repository"}},
	}
	c := normalize(Incident{IncidentType: "cloud", RawData: raw}, Indicators{}).Cloud
	if c.Provider != "aws" || c.Principal != "ci-static-site-deployer" || !c.Hosting || !c.LeakedCredential || !c.LongLivedCredential {
		t.Errorf("read %+v", c)
	}
	if got := firedRules(kindGeneric, Fields{Cloud: c}); !got["cloud.exposed_static_credential"] || !got["cloud.anonymized_or_hosting_caller"] {
		t.Errorf("fired %v", got)
	}
	posture := map[string]any{"issue": map[string]any{"id": "9"}, "control": map[string]any{"name": "Publicly readable bucket"},
		"resource": map[string]any{"name": "site-assets", "cloudPlatform": "Azure"}}
	if c := normalize(Incident{IncidentType: "cloud", RawData: posture}, Indicators{}).Cloud; c.Provider != "azure" || c.Hosting || c.LeakedCredential {
		t.Errorf("posture issue read %+v", c)
	}
}
