package playbook

import (
	"fmt"
	"reflect"
	"testing"
	"time"
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

// FuzzCondition evaluates arbitrary conditions, and the same text as a
// template: nothing panics, a run ends well within the time the step
// budget allows, and a second run gives the same answer, as replayed
// workflow code needs.
func FuzzCondition(f *testing.F) {
	for _, seed := range []string{
		`incident.severity in ["high", "critical"]`,
		`incident.verdict.classification == "malicious" && incident.verdict.confidence >= variables.min_confidence`,
		`outputs.scan?.success ?? false`,
		`"block_sender" in incident.recommended_actions`,
		`outputs.quarantine.success && len(keys(incident.raw_data)) > 2`,
		`any(incident.raw_data.recipients, {# endsWith "@corp.example"})`,
		`toJSON(toPairs(incident.raw_data.headers)) contains "a"`,
		`let r = 1..2000; all(r, {all(r, {all(r, {# > 0})})})`,
		`let r = 1..(len(incident.number) * 400); all(r, {all(r, {all(r, {# > 0})})})`,
		`incident.title matches incident.raw_data.sender`,
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, condition string) {
		start := time.Now()
		got, err := Eval(condition, sampleEnv())
		if took := time.Since(start); took > 5*time.Second {
			t.Fatalf("evaluation took %v", took)
		}
		again, err2 := Eval(condition, sampleEnv())
		if got != again || errString(err) != errString(err2) {
			t.Fatalf("two runs differ: %v, %v then %v, %v", got, err, again, err2)
		}
		params := map[string]any{"x": "{{" + condition + "}}"}
		out, err := Render(params, sampleEnv())
		out2, err2 := Render(params, sampleEnv())
		// Compared as text: NaN, which 0/0 renders, is not equal to itself.
		if fmt.Sprintf("%#v", out) != fmt.Sprintf("%#v", out2) || errString(err) != errString(err2) {
			t.Fatalf("two renders differ: %v, %v then %v, %v", out, err, out2, err2)
		}
	})
}
