package triage

import "testing"

// Defender for Office names a zero-hour purge's later verdict in the
// alert's title; with no threat field, the title gives the threat type.
func TestLaterVerdictThreatReadFromTheTitle(t *testing.T) {
	for title, want := range map[string]string{
		"Teams message containing malicious URL removed after delivery": "phish",
		"Email messages containing malware removed after delivery":      "malware",
		"Email messages removed after delivery":                         "",
	} {
		raw := map[string]any{"title": title, "serviceSource": "microsoftDefenderForOffice365",
			"description": "Zero-hour auto purge removed the message after delivery.",
			"evidence": []any{map[string]any{"@odata.type": "#microsoft.graph.security.analyzedMessageEvidence",
				"senderIp": "40.107.22.10", "p1Sender": map[string]any{"emailAddress": "a@example.org"}}}}
		e := normalize(Incident{IncidentType: "phishing", RawData: raw}, Indicators{}).Email
		if !e.LaterVerdict || e.ThreatType != want {
			t.Errorf("%q: later verdict %v, threat %q, want %q", title, e.LaterVerdict, e.ThreatType, want)
		}
	}
}

// The Management Activity API's alert record names the purge in Name
// and its operation (MalwareZap) inside a serialised Data object; a name
// deeper in the payload (an entity's) does not hide a title that has one.
func TestLaterVerdictThreatReadFromTheAlertRecord(t *testing.T) {
	record := map[string]any{"Operation": "AlertEntityGenerated", "Workload": "SecurityComplianceCenter",
		"Name": "Email messages containing malware removed after delivery",
		"Data": `{"etype":"MailMessage","op":"MalwareZap","ms":"Remittance Advice","zapAction":"Quarantine","dl":"Inbox"}`}
	if e := normalize(Incident{IncidentType: "phishing", RawData: record}, Indicators{}).Email; !e.LaterVerdict || e.ThreatType != "malware" {
		t.Errorf("alert record: later verdict %v, threat %q", e.LaterVerdict, e.ThreatType)
	}
	titled := map[string]any{"title": "Email messages containing malicious URL removed after delivery",
		"description": "Zero-hour auto purge removed the message after delivery.",
		"entities":    []any{map[string]any{"name": "Invoice portal"}}}
	if e := normalize(Incident{IncidentType: "phishing", RawData: titled}, Indicators{}).Email; e.ThreatType != "phish" {
		t.Errorf("an entity's name hid the title: threat %q", e.ThreatType)
	}
}

// Duo's adaptive trust runs the other way from a risk level: LOW trust
// with a reason is a risky authentication, NORMAL a calm one, and LOW
// with the policy off is no assessment.
func TestDuoAdaptiveTrustIsARiskLevel(t *testing.T) {
	for reason, want := range map[string]string{
		"New access IP; new access OS; unusual hour": "medium",
		"Not enabled": "",
	} {
		raw := map[string]any{"event_type": "authentication", "factor": "duo_push", "result": "success", "reason": "user_approved",
			"adaptive_trust_assessments": map[string]any{"more_secure_auth": map[string]any{"trust_level": "LOW", "reason": reason}}}
		if got := normalize(Incident{IncidentType: kindLogin, RawData: raw}, Indicators{}).Identity.RiskLevel; got != want {
			t.Errorf("LOW trust, %q: risk %q, want %q", reason, got, want)
		}
	}
	calm := map[string]any{"event_type": "authentication", "factor": "duo_push", "result": "success",
		"adaptive_trust_assessments": map[string]any{"more_secure_auth": map[string]any{"trust_level": "NORMAL", "reason": "Normal level of trust"}}}
	if got := normalize(Incident{IncidentType: kindLogin, RawData: calm}, Indicators{}).Identity.RiskLevel; got != "low" {
		t.Errorf("NORMAL trust: risk %q, want low", got)
	}
}

// Microsoft's result for a submission, in its own field or the comment
// its automation files, is the latest look at a purged or reported
// message and outranks the evidence's engine verdict.
func TestASubmissionResultIsTheLatestVerdict(t *testing.T) {
	for text, want := range map[string]string{
		"Admin submission result: Should not have been blocked (False positive). Messages released.": "false_positive",
		"Microsoft analysis: Should have been blocked (Phish)":                                       "malicious",
		"Reviewed with the user, waiting on the sender":                                              "suspicious",
	} {
		raw := map[string]any{"title": "Email messages containing malicious URL removed after delivery",
			"comments": []any{map[string]any{"comment": text, "createdByDisplayName": "Automation"}},
			"evidence": []any{map[string]any{"verdict": "suspicious", "subject": "Your year-end pay statement"}}}
		if got := readAlert(newDoc(raw)).VendorVerdict; got != want {
			t.Errorf("%q: vendor verdict %q, want %q", text, got, want)
		}
	}
}
