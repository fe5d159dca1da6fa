package triage

import "testing"

// TestTheReportMailboxExplainsAClickOnAKnownPhish holds that a click from
// the organisation's phishing-report mailbox on a URL the gateway already
// condemned is the security team at work, whatever the message's red
// flags, and that an ordinary recipient's click stays malicious.
func TestTheReportMailboxExplainsAClickOnAKnownPhish(t *testing.T) {
	for local, want := range map[string]bool{
		"phishreport": true, "report-phish": true, "phishing-report": true, "abuse": true, "soc-analysis": true,
		"it.phish-reports": true, "j.smith": false, "phil.shaw": false, "reports": false,
	} {
		if got := reportMailboxRe.MatchString(local); got != want {
			t.Errorf("%s: read as a report mailbox %v, want %v", local, got, want)
		}
	}
	payload := func(recipient string) Incident {
		return Incident{IncidentType: kindPhishing, Severity: "high", RawData: mustJSON(t, `{"clicksBlocked": [{"classification": "phish",
			"recipient": "`+recipient+`", "sender": "notice@sendgrid-mailer.online", "url": "https://m365-voicemail-inbox.web.app/listen?id=7",
			"threatStatus": "active", "clickTime": "2025-07-17T12:41:09.000Z"}]}`)}
	}
	if a := analyzeRules(t, payload("phishreport@example.com")); a.Verdict.Classification != ClassBenign {
		t.Errorf("the report mailbox's click classified %s: %s", a.Verdict.Classification, a.Verdict.Reasoning)
	}
	if a := analyzeRules(t, payload("j.smith@example.com")); a.Verdict.Classification == ClassBenign {
		t.Errorf("an employee's click on a condemned phish classified benign: %s", a.Verdict.Reasoning)
	}
}
