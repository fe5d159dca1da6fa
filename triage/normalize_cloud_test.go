package triage

import "testing"

func TestCloudTrailConsoleLoginFields(t *testing.T) {
	federated := map[string]any{
		"eventSource": "signin.amazonaws.com", "eventName": "ConsoleLogin",
		"userIdentity":        map[string]any{"type": "AssumedRole", "arn": "arn:aws:sts::1:assumed-role/Admins/a@example.com"},
		"additionalEventData": map[string]any{"MFAUsed": "No", "SamlProviderArn": "arn:aws:iam::1:saml-provider/IdP"},
	}
	root := map[string]any{
		"eventSource": "signin.amazonaws.com", "eventName": "ConsoleLogin",
		"userIdentity":        map[string]any{"type": "Root", "arn": "arn:aws:iam::1:root"},
		"additionalEventData": map[string]any{"MFAUsed": "No"},
		"enrichment":          map[string]any{"asn": "AS14061", "root_console_logins_last_365d": 0},
	}
	f := normalize(Incident{RawData: federated}, Indicators{}).Cloud
	if !f.ConsoleLogin || !f.Federated || f.Root || f.MFAUsed != "no" {
		t.Errorf("federated sign-in read as %+v", f)
	}
	f = normalize(Incident{RawData: root}, Indicators{}).Cloud
	if !f.ConsoleLogin || f.Federated || !f.Root || !f.Hosting || !f.FirstUse {
		t.Errorf("root sign-in read as %+v", f)
	}
}

func TestNoChangeRecordFromFieldOrWords(t *testing.T) {
	for raw, want := range map[string]bool{
		`none found`:                 true,
		`CHG0043001 restart service`: false,
	} {
		d := newDoc(map[string]any{"Change record": raw})
		if got := noChangeRecord(d); got != want {
			t.Errorf("noChangeRecord(%q) = %v, want %v", raw, got, want)
		}
	}
}

// A role given to a consumer mailbox is read from GCP's "user:" members
// and from a plain address; a grant to the organisation's own group is not.
func TestRoleGrantedToConsumerMailbox(t *testing.T) {
	grant := func(member string) map[string]any {
		return map[string]any{
			"finding":       map[string]any{"findingClass": "THREAT", "category": "Persistence: IAM Anomalous Grant"},
			"access":        map[string]any{"principalEmail": "deploy@prod.iam.gserviceaccount.com", "methodName": "SetIamPolicy"},
			"bindingDeltas": []any{map[string]any{"action": "ADD", "role": "roles/owner", "member": member}},
		}
	}
	for member, want := range map[string]bool{
		"user:backup.admin@gmail.com":                     true,
		"someone@Outlook.com":                             true,
		"group:data-admins@contoso.com":                   false,
		"serviceAccount:etl@prod.iam.gserviceaccount.com": false,
	} {
		f := normalize(Incident{IncidentType: "cloud", RawData: grant(member)}, Indicators{}).Cloud
		if !f.Persistence || f.ConsumerGrantee != want {
			t.Errorf("%s: persistence %v, consumer grantee %v; want true, %v", member, f.Persistence, f.ConsumerGrantee, want)
		}
	}
}

// A trail of console sign-in records is read as a whole: a mistyped
// password followed by a sign-in with MFA is a success with MFA; failures
// alone are a failed sign-in.
func TestConsoleSignInTrailIsReadAsAWhole(t *testing.T) {
	record := func(outcome, mfa string) map[string]any {
		return map[string]any{"eventSource": "signin.amazonaws.com", "eventName": "ConsoleLogin", "eventType": "AwsConsoleSignIn",
			"userIdentity":        map[string]any{"type": "IAMUser", "userName": "j.park"},
			"responseElements":    map[string]any{"ConsoleLogin": outcome},
			"additionalEventData": map[string]any{"MFAUsed": mfa}, "sourceIPAddress": "198.51.100.20"}
	}
	typo := map[string]any{"Records": []any{record("Failure", "No"), record("Success", "Yes")}}
	f := normalize(Incident{IncidentType: "suspicious_login", RawData: typo}, Indicators{})
	if !f.Cloud.ConsoleLogin || f.Cloud.LoginFailed || f.Cloud.MFAUsed != "yes" {
		t.Fatalf("typo then sign-in: console %v, failed %v, mfa %q", f.Cloud.ConsoleLogin, f.Cloud.LoginFailed, f.Cloud.MFAUsed)
	}
	failures := map[string]any{"Records": []any{record("Failure", "No"), record("Failure", "No")}}
	if f := normalize(Incident{IncidentType: "suspicious_login", RawData: failures}, Indicators{}); !f.Cloud.LoginFailed {
		t.Fatal("failures alone not read as a failed sign-in")
	}
}
