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
