package playbook

import (
	"bytes"
	"reflect"
	"strings"
	"testing"
)

func TestMarshalRoundTrip(t *testing.T) {
	texts := map[string][]byte{"full example": []byte(fullExample)}
	for _, text := range builtinTexts() {
		r := Parse(text)
		if r.Playbook == nil {
			t.Fatalf("built-in does not parse: %v", r.Errors)
		}
		texts[r.Playbook.Name] = text
	}
	tricky := "name: 'Tricky: quoting'\nversion: \"2\"\nvariables:\n  yes_word: \"yes\"\n  number_text: \"1.0\"\n  empty: \"\"\n  nothing: null\n  nested: {list: [1, 2.5, true, \"x\"], map: {}}\n  multi: \"line one\\nline two\\n\"\n  hash: \"# not a comment\"\n  unicode: \"caf\\u00e9 \\u2713\"\n  whole: 5.0\nsteps:\n" + okStep
	texts["tricky"] = []byte(tricky)
	for name, text := range texts {
		t.Run(name, func(t *testing.T) {
			first := Parse(text)
			if !first.Valid() {
				t.Fatalf("errors: %v", first.Errors)
			}
			out, err := Marshal(first.Playbook)
			if err != nil {
				t.Fatal(err)
			}
			second := Parse(out)
			if !second.Valid() {
				t.Fatalf("marshalled text invalid: %v\n%s", second.Errors, out)
			}
			if !reflect.DeepEqual(second.Playbook, first.Playbook) {
				t.Errorf("round trip differs:\n%#v\n%#v\n%s", second.Playbook, first.Playbook, out)
			}
			again, err := Marshal(second.Playbook)
			if err != nil || !bytes.Equal(again, out) {
				t.Errorf("marshal not stable:\n%s\n%s", out, again)
			}
		})
	}
}

func TestMarshalShape(t *testing.T) {
	out, err := Marshal(fullExamplePlaybook())
	if err != nil {
		t.Fatal(err)
	}
	text := string(out)
	// Keys come in a fixed, readable order: the playbook header first,
	// and each step's name before what it does.
	for _, want := range []string{
		"name: Phishing triage\ndescription: Contain a reported phish\nversion: \"1.0\"\ntriggers:\n  incident_type: phishing\n  auto_run: true\n",
		"  - name: quarantine\n    action: quarantine_email\n    parameters:\n",
		"  - name: contain\n    parallel:\n      - - name: block\n",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("output lacks %q:\n%s", want, text)
		}
	}
	if _, err := Marshal(nil); err == nil {
		t.Error("Marshal(nil) succeeded")
	}
}
