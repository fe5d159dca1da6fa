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
