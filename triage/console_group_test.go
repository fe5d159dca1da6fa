package triage

import (
	"strings"
	"testing"
)

// A console sign-in sent as a suspicious login is read both as a cloud
// event and as a sign-in; the cloud and identity rules that judge a
// password without MFA read one fact and must count once between them.
func TestConsoleSignInWithoutMFACountsOnceAcrossRuleFiles(t *testing.T) {
	raw := mustJSON(t, `{"eventVersion":"1.08","eventSource":"signin.amazonaws.com","eventName":"ConsoleLogin",
		"userIdentity":{"type":"Root","arn":"arn:aws:iam::111122223333:root","accountId":"111122223333"},
		"sourceIPAddress":"198.51.100.23","responseElements":{"ConsoleLogin":"Success"},
		"additionalEventData":{"MFAUsed":"No","LoginTo":"https://console.aws.amazon.com/console/home"}}`)
	a := analyze(t, Incident{IncidentType: "suspicious_login", Severity: "high", RawData: raw})
	why := a.Verdict.Reasoning
	for _, id := range []string{"cloud.root_console_without_mfa", "identity.console_root_without_mfa"} {
		if !strings.Contains(why, "ule "+id) {
			t.Fatalf("rule %s did not fire: %s", id, why)
		}
	}
	fired := 0
	for _, id := range []string{"cloud.root_console_without_mfa", "cloud.console_without_mfa", "identity.console_password_only", "identity.console_root_without_mfa"} {
		if strings.Contains(why, "ule "+id) {
			fired++
		}
	}
	if n := strings.Count(why, "counted once with the stronger console_without_mfa evidence"); n != fired-1 {
		t.Errorf("%d of %d console_without_mfa rules counted, want 1: %s", fired-n, fired, why)
	}
}
