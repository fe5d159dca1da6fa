package triage

import "testing"

func TestResolverFindsFieldsWhateverTheSchema(t *testing.T) {
	cases := []struct {
		name string
		raw  map[string]any
		key  string
		want string
	}{
		{"nested ECS", map[string]any{"process": map[string]any{"parent": map[string]any{"name": "winword.exe"}}}, "parentname", "winword.exe"},
		{"dotted column", map[string]any{"process.parent.name": "winword.exe"}, "parentname", "winword.exe"},
		{"log store suffix", map[string]any{"client_ipAddress_s": "203.0.113.9"}, "ipaddress", "203.0.113.9"},
		{"camelCase path", map[string]any{"client": map[string]any{"ipAddress": "203.0.113.9"}}, "clientipaddress", "203.0.113.9"},
		{"embedded JSON", map[string]any{"Entities": `[{"Type":"mailMessage","Sender":"a@example.net"}]`}, "sender", "a@example.net"},
		{"counting window", map[string]any{"failed_attempts_last_10m": "64"}, "failedattempts", "64"},
		{"context kept", map[string]any{"user_usual_country": "DE"}, "country", ""},
		{"context qualified", map[string]any{"user_usual_country": "DE"}, "usualcountry", "DE"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := newDoc(c.raw).str(c.key); got != c.want {
				t.Errorf("%s: got %q, want %q", c.key, got, c.want)
			}
		})
	}
}
