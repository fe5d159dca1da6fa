package playbook

import (
	"reflect"
	"testing"
)

func FuzzParse(f *testing.F) {
	f.Add([]byte(fullExample))
	for _, text := range builtinTexts() {
		f.Add(text)
	}
	for _, seed := range []string{
		"",
		"name: x\nsteps:\n" + okStep,
		"name: x\nsteps:\n  - name: c\n    condition: \"{{\"\n    then: stop\n",
		"name: x\nvariables: {a: &a [1], b: *a}\nsteps: []\n",
		"name: x\nsteps:\n  - name: p\n    parallel: [[{name: a, action: scan_host, parameters: {host_id: \"{{ variables.h }}\"}}]]\n",
		"- [[[[]]]]\n",
		"name: !!binary aGVsbG8=\nsteps: {}\n",
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, text []byte) {
		r := Parse(text)
		if !r.Valid() {
			return
		}
		if r.Playbook == nil || r.Playbook.StepCount() < 1 {
			t.Fatalf("valid without steps: %#v", r.Playbook)
		}
		// A valid playbook survives export and import unchanged.
		out, err := Marshal(r.Playbook)
		if err != nil {
			t.Fatalf("marshal: %v", err)
		}
		again := Parse(out)
		if !again.Valid() {
			t.Fatalf("marshalled playbook invalid: %v\n%s", again.Errors, out)
		}
		if !reflect.DeepEqual(again.Playbook, r.Playbook) {
			t.Fatalf("round trip differs:\n%#v\n%#v\n%s", again.Playbook, r.Playbook, out)
		}
	})
}
