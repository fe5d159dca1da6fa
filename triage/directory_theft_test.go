package triage

import "testing"

// firedRules returns the IDs of the built-in rules that fire for kind on f.
func firedRules(kind string, f Fields) map[string]bool {
	out := map[string]bool{}
	for _, h := range BuiltinRules().evaluate(kind, f) {
		out[h.rule.ID] = true
	}
	return out
}

func TestADetectionNamingDirectorySecretsTheftIsAnAttack(t *testing.T) {
	tests := []struct {
		name     string
		alert    AlertFields
		theft    bool
		kerberos bool
	}{
		{"technique id", AlertFields{Techniques: []string{"T1003.006"}}, true, false},
		{"named in the title", AlertFields{Text: "suspected golden ticket usage (forged authorization data)"}, true, false},
		{"kerberoasting by id", AlertFields{Techniques: []string{"T1558.003"}}, false, true},
		{"pass the hash by name", AlertFields{Text: "possible pass-the-hash from a workstation"}, false, true},
		{"lsass is the endpoint's concern", AlertFields{Techniques: []string{"T1003.001"}}, false, false},
		{"a test", AlertFields{Techniques: []string{"T1003.006"}, SecurityTesting: true}, false, false},
	}
	for _, tt := range tests {
		got := firedRules(kindLogin, Fields{Alert: tt.alert})
		if got["alert.directory_secrets_theft"] != tt.theft || got["alert.kerberos_credential_abuse"] != tt.kerberos {
			t.Errorf("%s: fired %v, want theft=%v kerberos=%v", tt.name, got, tt.theft, tt.kerberos)
		}
	}
	if firedRules(kindPhishing, Fields{Alert: AlertFields{Text: "dcsync"}})["alert.directory_secrets_theft"] {
		t.Error("a mail about DCSync is not a DCSync")
	}
}

func TestAnODataAnnotationIsNoTitle(t *testing.T) {
	a := readAlert(newDoc(map[string]any{"@odata.type": "#microsoft.graph.security.alert", "title": "Suspected DCSync attack"}))
	if a.Title != "Suspected DCSync attack" {
		t.Errorf("title %q", a.Title)
	}
}

// A raw security event 4662 that exercises a secret-reading replication
// right is a DCSync by whoever is not a domain controller's own machine
// account, even with no detection's name around it.
func TestReplicationRightsInAWindowsEventAreADCSync(t *testing.T) {
	event := func(account string) map[string]any {
		return map[string]any{"EventID": float64(4662), "Activity": "4662 - An operation was performed on an object.",
			"SubjectUserName": account, "Computer": "DC01.example.local",
			"Properties": "%%7688 {1131f6ad-9c07-11d1-f79f-00c04fc2dcd2} {1131f6aa-9c07-11d1-f79f-00c04fc2dcd2} {19195a5b-6da0-11d0-afd3-00c04fd930c9}"}
	}
	if got := firedRules(kindGeneric, Fields{Alert: readAlert(newDoc(event("svc_sqlrpt")))}); !got["alert.directory_secrets_theft"] {
		t.Errorf("a service account's replication: fired %v", got)
	}
	if readAlert(newDoc(event("DC02$"))).Techniques != nil {
		t.Error("a domain controller replicating is not a DCSync")
	}
	other := event("svc_sqlrpt")
	other["EventID"] = float64(4624)
	if readAlert(newDoc(other)).Techniques != nil {
		t.Error("another event naming the GUIDs is not a replication request")
	}
}
