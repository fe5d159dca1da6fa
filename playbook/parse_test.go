package playbook

import (
	"reflect"
	"strings"
	"testing"
)

// okStep is a valid first step for cases about something else; it starts
// on line 3 when preceded by "name:" and "steps:".
const okStep = "  - name: scan\n    action: scan_host\n    parameters: {host_id: h1}\n"

func TestParseFullExample(t *testing.T) {
	r := Parse([]byte(fullExample))
	if !r.Valid() {
		t.Fatalf("errors: %v", r.Errors)
	}
	if len(r.Warnings) != 0 {
		t.Errorf("warnings: %v", r.Warnings)
	}
	if want := fullExamplePlaybook(); !reflect.DeepEqual(r.Playbook, want) {
		t.Errorf("decoded\n%#v\nwant\n%#v", r.Playbook, want)
	}
	if got := r.Playbook.StepCount(); got != 6 {
		t.Errorf("StepCount = %d, want 6", got)
	}
	kinds := []string{KindAction, KindCondition, KindAIAnalysis, KindParallel}
	for i, s := range r.Playbook.Steps {
		if s.Kind() != kinds[i] {
			t.Errorf("step %d kind %q, want %q", i, s.Kind(), kinds[i])
		}
	}
}

// problemCase expects a problem at line whose message contains msg, and
// none containing not.
type problemCase struct {
	name string
	yaml string
	line int
	msg  string
	not  string
}

func TestParseErrors(t *testing.T) {
	cases := []problemCase{
		// yaml.v3 reports the line where the enclosing collection starts.
		{name: "yaml syntax", yaml: "name: x\nsteps:\n  - name: [a\n", line: 2, msg: "invalid YAML: did not find expected ',' or ']'"},
		{name: "yaml mapping value", yaml: "name: x\nsteps:\n  - name: a\n    action: x: y\n", line: 4, msg: "invalid YAML: mapping values are not allowed"},
		{name: "tab indentation", yaml: "name: x\nsteps:\n\t- name: a\n", line: 3, msg: "invalid YAML"},
		{name: "root is a list", yaml: "- a\n- b\n", line: 1, msg: "playbook must be a mapping"},
		{name: "empty text", yaml: "", line: 1, msg: "playbook is empty"},
		{name: "only a comment", yaml: "# nothing\n", line: 1, msg: "playbook is empty"},
		{name: "two documents", yaml: "name: a\nsteps: []\n---\nname: b\n", line: 3, msg: "only one YAML document"},
		{name: "unknown top-level key", yaml: "name: x\nstepz: []\nsteps:\n" + okStep, line: 2, msg: `unknown key "stepz"`},
		{name: "duplicate top-level key", yaml: "name: x\nname: y\nsteps:\n" + okStep, line: 2, msg: `duplicate key "name"`},
		{name: "missing name", yaml: "steps:\n" + okStep, line: 1, msg: "name is required"},
		{name: "empty name", yaml: "name: \"  \"\nsteps:\n" + okStep, line: 1, msg: "name is required"},
		{name: "name not a string", yaml: "name: [a]\nsteps:\n" + okStep, line: 1, msg: "name must be a string", not: "name is required"},
		{name: "name too long", yaml: "name: " + strings.Repeat("n", 101) + "\nsteps:\n" + okStep, line: 1, msg: "at most 100 characters"},
		{name: "missing steps", yaml: "name: x\n", line: 1, msg: "at least one step"},
		{name: "empty steps", yaml: "name: x\nsteps: []\n", line: 2, msg: "at least one step"},
		{name: "steps not a list", yaml: "name: x\nsteps: scan\n", line: 2, msg: "steps must be a list", not: "at least one step"},
		{name: "step not a mapping", yaml: "name: x\nsteps:\n  - scan\n", line: 3, msg: "step 1 must be a mapping", not: "needs exactly one"},
		{name: "step without name", yaml: "name: x\nsteps:\n  - action: scan_host\n    parameters: {host_id: h}\n", line: 3, msg: "step 1: name is required"},
		{name: "duplicate step name", yaml: "name: x\nsteps:\n" + okStep + "  - name: scan\n    action: scan_host\n    parameters: {host_id: h2}\n", line: 6, msg: `duplicate step name "scan"`},
		{name: "duplicate name in branch", yaml: "name: x\nsteps:\n" + okStep + "  - name: p\n    parallel:\n      - - name: scan\n          action: scan_host\n          parameters: {host_id: h}\n", line: 8, msg: `duplicate step name "scan"`},
		{name: "bad step name", yaml: "name: x\nsteps:\n  - name: Scan Host\n    action: scan_host\n    parameters: {host_id: h}\n", line: 3, msg: "must be 1 to 64 lowercase"},
		{name: "reserved step name", yaml: "name: x\nsteps:\n  - name: stop\n    action: scan_host\n    parameters: {host_id: h}\n", line: 3, msg: "reserved for jumps"},
		{name: "unknown step key", yaml: "name: x\nsteps:\n  - name: a\n    acton: scan_host\n", line: 4, msg: `step "a": unknown key "acton"`},
		{name: "no kind", yaml: "name: x\nsteps:\n  - name: a\n    output: result\n", line: 3, msg: `step "a": needs exactly one of action, condition, ai_analysis or parallel`},
		{name: "empty action", yaml: "name: x\nsteps:\n  - name: a\n    action: \"\"\n", line: 3, msg: "needs exactly one of"},
		{name: "several kinds", yaml: "name: x\nsteps:\n  - name: a\n    action: scan_host\n    condition: \"true\"\n", line: 3, msg: "has action and condition"},
		{name: "unknown action", yaml: "name: x\nsteps:\n  - name: a\n    action: launch_missiles\n", line: 4, msg: `step "a": unknown action "launch_missiles"`},
		{name: "missing required parameter", yaml: "name: x\nsteps:\n  - name: quarantine\n    action: quarantine_email\n    parameters:\n      reason: spam\n", line: 3, msg: `step "quarantine": action quarantine_email requires parameter message_id`},
		{name: "no parameters at all", yaml: "name: x\nsteps:\n  - name: n\n    action: notify_user\n", line: 3, msg: "requires parameter message"},
		{name: "unknown parameter", yaml: "name: x\nsteps:\n  - name: a\n    action: scan_host\n    parameters:\n      host_id: h\n      depth: 3\n", line: 7, msg: `unknown parameter "depth" for action scan_host`},
		{name: "literal of wrong type", yaml: "name: x\nsteps:\n  - name: a\n    action: scan_host\n    parameters:\n      host_id: 42\n", line: 6, msg: "parameter host_id must be a string"},
		{name: "literal not in enum", yaml: "name: x\nsteps:\n  - name: a\n    action: scan_host\n    parameters:\n      host_id: h\n      scan_type: slow\n", line: 7, msg: "scan_type must be one of: quick, full"},
		{name: "literal bad format", yaml: "name: x\nsteps:\n  - name: a\n    action: block_sender\n    parameters:\n      sender: not an address\n", line: 6, msg: "must be an email address or a domain"},
		{name: "empty required literal", yaml: "name: x\nsteps:\n  - name: a\n    action: scan_host\n    parameters:\n      host_id: \"\"\n", line: 6, msg: "parameter host_id is required"},
		{name: "template does not compile", yaml: "name: x\nsteps:\n  - name: a\n    action: scan_host\n    parameters:\n      host_id: \"{{ incident.hostname }}\"\n", line: 6, msg: "has no field hostname"},
		{name: "template syntax", yaml: "name: x\nsteps:\n  - name: a\n    action: scan_host\n    parameters:\n      host_id: \"host-{{ incident.id + }}\"\n", line: 6, msg: "template {{ incident.id + }}"},
		{name: "unclosed template", yaml: "name: x\nsteps:\n  - name: a\n    action: scan_host\n    parameters:\n      host_id: \"{{ incident.id \"\n", line: 6, msg: "without a closing"},
		{name: "empty template", yaml: "name: x\nsteps:\n  - name: a\n    action: scan_host\n    parameters:\n      host_id: \"h-{{ }}\"\n", line: 6, msg: "empty {{ }}"},
		{name: "nested template", yaml: "name: x\nsteps:\n  - name: t\n    action: create_ticket\n    parameters:\n      title: t\n      description:\n        - ok\n        - \"{{ nope }}\"\n", line: 9, msg: "unknown name nope"},
		{name: "disabled builtin", yaml: "name: x\nsteps:\n  - name: a\n    action: scan_host\n    parameters:\n      host_id: \"{{ string(now()) }}\"\n", line: 6, msg: "now"},
		{name: "condition does not compile", yaml: "name: x\nsteps:\n  - name: c\n    condition: incident.severity ==\n", line: 4, msg: `step "c": condition: unexpected token EOF`},
		{name: "condition not boolean", yaml: "name: x\nsteps:\n  - name: c\n    condition: incident.severity\n", line: 4, msg: "expected bool"},
		{name: "undeclared variable", yaml: "name: x\nvariables:\n  known: 1\nsteps:\n  - name: c\n    condition: variables.unknown > 1\n", line: 6, msg: `variable "unknown" is not declared`},
		{name: "undeclared variable by index", yaml: "name: x\nsteps:\n  - name: a\n    action: scan_host\n    parameters:\n      host_id: \"{{ variables['host'] }}\"\n", line: 6, msg: `variable "host" is not declared`},
		{name: "output used before produced", yaml: "name: x\nsteps:\n  - name: a\n    action: scan_host\n    parameters:\n      host_id: \"{{ outputs.later.host_id }}\"\n  - name: b\n    action: scan_host\n    parameters: {host_id: h}\n    output: later\n", line: 6, msg: `output "later" is used before it is produced`},
		{name: "own output", yaml: "name: x\nsteps:\n  - name: a\n    action: scan_host\n    parameters:\n      host_id: \"{{ outputs.me.host_id }}\"\n    output: me\n", line: 6, msg: `output "me" is used before it is produced`},
		{name: "output never produced", yaml: "name: x\nsteps:\n  - name: c\n    condition: outputs.scan.success\n", line: 4, msg: `output "scan" is not produced by any step`},
		{name: "output of sibling branch", yaml: "name: x\nsteps:\n  - name: p\n    parallel:\n      - - name: a\n          action: scan_host\n          parameters: {host_id: h}\n          output: first\n      - - name: b\n          action: scan_host\n          parameters: {host_id: \"{{ outputs.first.host_id }}\"}\n", line: 11, msg: `output "first" is used before it is produced`},
		{name: "duplicate output", yaml: "name: x\nsteps:\n  - name: a\n    action: scan_host\n    parameters: {host_id: h}\n    output: r\n  - name: p\n    parallel:\n      - - name: b\n          action: scan_host\n          parameters: {host_id: h}\n          output: r\n", line: 12, msg: `duplicate output name "r"`},
		{name: "bad output name", yaml: "name: x\nsteps:\n  - name: a\n    action: scan_host\n    parameters: {host_id: h}\n    output: Scan-Result\n", line: 6, msg: "output name \"Scan-Result\" must be"},
		{name: "ai without question", yaml: "name: x\nsteps:\n  - name: ask\n    ai_analysis: {}\n    output: answer\n", line: 4, msg: "ai_analysis needs a question"},
		{name: "ai null", yaml: "name: x\nsteps:\n  - name: ask\n    ai_analysis:\n    output: answer\n", line: 4, msg: "ai_analysis needs a question"},
		{name: "ai without output", yaml: "name: x\nsteps:\n  - name: ask\n    ai_analysis:\n      question: why?\n", line: 3, msg: "ai_analysis needs an output"},
		{name: "ai unknown key", yaml: "name: x\nsteps:\n  - name: ask\n    ai_analysis:\n      question: why?\n      model: big\n    output: a\n", line: 6, msg: `ai_analysis: unknown key "model"`},
		{name: "ai bad template", yaml: "name: x\nsteps:\n  - name: ask\n    ai_analysis:\n      question: \"about {{ variables.topic }}\"\n    output: a\n", line: 5, msg: `variable "topic" is not declared`},
		{name: "jump to unknown step", yaml: "name: x\nsteps:\n  - name: c\n    condition: \"true\"\n    then: nowhere\n", line: 5, msg: `then jumps to unknown step "nowhere"`},
		{name: "jump backwards", yaml: "name: x\nsteps:\n" + okStep + "  - name: c\n    condition: \"true\"\n    else: scan\n", line: 8, msg: `else jumps back to step "scan"`},
		{name: "jump to itself", yaml: "name: x\nsteps:\n  - name: c\n    condition: \"true\"\n    then: c\n", line: 5, msg: "jumps back"},
		{name: "jump into branch", yaml: "name: x\nsteps:\n  - name: c\n    condition: \"true\"\n    then: b\n  - name: p\n    parallel:\n      - - name: b\n          action: scan_host\n          parameters: {host_id: h}\n", line: 5, msg: "inside a parallel branch"},
		{name: "nested parallel", yaml: "name: x\nsteps:\n  - name: p\n    parallel:\n      - - name: q\n          parallel:\n            - - name: a\n                action: scan_host\n                parameters: {host_id: h}\n", line: 6, msg: "must be an action or ai_analysis step, not parallel"},
		{name: "condition in branch", yaml: "name: x\nsteps:\n  - name: p\n    parallel:\n      - - name: c\n          condition: \"true\"\n", line: 6, msg: "not condition"},
		{name: "empty parallel", yaml: "name: x\nsteps:\n  - name: p\n    parallel: []\n", line: 4, msg: "parallel needs at least one branch"},
		{name: "empty branch", yaml: "name: x\nsteps:\n  - name: p\n    parallel:\n      - []\n", line: 5, msg: "branch 1 of parallel is empty"},
		{name: "parallel of steps", yaml: "name: x\nsteps:\n  - name: p\n    parallel:\n      - name: a\n        action: scan_host\n", line: 5, msg: "list of branches", not: "is empty"},
		{name: "parameters on condition", yaml: "name: x\nsteps:\n  - name: c\n    condition: \"true\"\n    parameters: {a: 1}\n", line: 5, msg: "parameters are only allowed on action steps"},
		{name: "then on action", yaml: "name: x\nsteps:\n  - name: a\n    action: scan_host\n    parameters: {host_id: h}\n    then: stop\n", line: 6, msg: "then is only allowed on condition steps"},
		{name: "output on condition", yaml: "name: x\nsteps:\n  - name: c\n    condition: \"true\"\n    output: r\n", line: 5, msg: "output is only allowed"},
		{name: "duplicate step key", yaml: "name: x\nsteps:\n  - name: a\n    action: scan_host\n    action: isolate_host\n", line: 5, msg: `duplicate key "action"`},
		{name: "continue_on_error not bool", yaml: "name: x\nsteps:\n  - name: a\n    action: scan_host\n    parameters: {host_id: h}\n    continue_on_error: sometimes\n", line: 6, msg: "continue_on_error must be true or false"},
		{name: "unknown trigger key", yaml: "name: x\ntriggers:\n  incident: phishing\nsteps:\n" + okStep, line: 3, msg: `triggers: unknown key "incident"`},
		{name: "auto_run not bool", yaml: "name: x\ntriggers:\n  auto_run: yes\nsteps:\n" + okStep, line: 3, msg: "auto_run must be true or false"},
		{name: "triggers not a mapping", yaml: "name: x\ntriggers: phishing\nsteps:\n" + okStep, line: 2, msg: "triggers must be a mapping"},
		{name: "bad variable name", yaml: "name: x\nvariables:\n  bad-name: 1\nsteps:\n" + okStep, line: 3, msg: `variable name "bad-name"`},
		{name: "infinite number", yaml: "name: x\nvariables:\n  limit: .inf\nsteps:\n" + okStep, line: 3, msg: "numbers must be finite"},
		{name: "custom tag", yaml: "name: x\nvariables:\n  v: !secret token\nsteps:\n" + okStep, line: 3, msg: "unsupported YAML tag !secret"},
		{name: "merge key", yaml: "name: x\nvariables:\n  <<: {a: 1}\nsteps:\n" + okStep, line: 3, msg: "merge keys"},
		{name: "non-scalar key", yaml: "name: x\nvariables:\n  ? [a]\n  : 1\nsteps:\n" + okStep, line: 3, msg: "keys must be plain strings"},
		{name: "alias", yaml: "name: x\nvariables:\n  a: &list [1, 2]\n  b: *list\nsteps:\n" + okStep, line: 4, msg: "aliases"},
		{name: "too large", yaml: "name: x\ndescription: " + strings.Repeat("x", MaxSize) + "\n", line: 0, msg: "larger than 256 KiB"},
		{name: "too deep", yaml: "name: x\nvariables:\n  v: " + strings.Repeat("[", 40) + strings.Repeat("]", 40) + "\nsteps:\n" + okStep, line: 3, msg: "more than 32 levels"},
		{name: "too many steps", yaml: "name: x\nsteps:\n" + manySteps(maxSteps+1), line: 2, msg: "at most 1000 are allowed"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := Parse([]byte(c.yaml))
			if r.Valid() {
				t.Fatalf("valid, want error %q", c.msg)
			}
			expectProblem(t, r.Errors, c)
		})
	}
}

func TestParseWarnings(t *testing.T) {
	cases := []problemCase{
		{name: "continue_on_error on condition", yaml: "name: x\nsteps:\n  - name: c\n    condition: \"true\"\n    continue_on_error: true\n" + okStep, line: 5, msg: "continue_on_error has no effect"},
		{name: "auto_run without incident_type", yaml: "name: x\ntriggers:\n  auto_run: true\nsteps:\n" + okStep, line: 3, msg: "auto_run has no effect"},
		{name: "unreachable after stop", yaml: "name: x\nsteps:\n  - name: c\n    condition: \"true\"\n    then: stop\n    else: stop\n" + okStep, line: 7, msg: `step "scan" is never reached`},
		{name: "skipped by every path", yaml: "name: x\nsteps:\n  - name: c\n    condition: \"true\"\n    then: last\n    else: last\n" + okStep + "  - name: last\n    action: scan_host\n    parameters: {host_id: h}\n", line: 7, msg: `step "scan" is never reached`},
		{name: "template in variable", yaml: "name: x\nvariables:\n  host: \"{{ incident.id }}\"\nsteps:\n" + okStep, line: 3, msg: "not expanded in variables"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := Parse([]byte(c.yaml))
			if !r.Valid() {
				t.Fatalf("errors: %v", r.Errors)
			}
			expectProblem(t, r.Warnings, c)
		})
	}
}

func expectProblem(t *testing.T, problems []Problem, c problemCase) {
	t.Helper()
	found := false
	for _, p := range problems {
		if p.Line == c.line && strings.Contains(p.Message, c.msg) {
			found = true
		}
		if c.not != "" && strings.Contains(p.Message, c.not) {
			t.Errorf("unexpected problem %+v", p)
		}
	}
	if !found {
		t.Errorf("no problem at line %d containing %q; got %+v", c.line, c.msg, problems)
	}
}

func manySteps(n int) string {
	var b strings.Builder
	for i := range n {
		b.WriteString("  - name: s" + strings.Repeat("x", 0) + itoa(i) + "\n    action: scan_host\n    parameters: {host_id: h}\n")
	}
	return b.String()
}

func itoa(i int) string {
	const digits = "0123456789"
	if i < 10 {
		return digits[i : i+1]
	}
	return itoa(i/10) + digits[i%10:i%10+1]
}

func TestParseValidCases(t *testing.T) {
	cases := []struct {
		name string
		yaml string
	}{
		{"required parameter as template", "name: x\nsteps:\n  - name: q\n    action: quarantine_email\n    parameters: {message_id: \"{{ incident.raw_data.id }}\"}\n"},
		{"output of earlier step", "name: x\nsteps:\n" + okStep + "    output: scan\n  - name: c\n    condition: outputs.scan.success == true\n"},
		{"output of earlier step in same branch", "name: x\nsteps:\n  - name: p\n    parallel:\n      - - name: a\n          action: scan_host\n          parameters: {host_id: h}\n          output: first\n        - name: b\n          action: isolate_host\n          parameters: {host_id: \"{{ outputs.first.host_id }}\"}\n"},
		{"output of parallel branch after it", "name: x\nsteps:\n  - name: p\n    parallel:\n      - - name: a\n          action: scan_host\n          parameters: {host_id: h}\n          output: first\n  - name: c\n    condition: outputs.first.success\n"},
		{"dynamic variable lookup", "name: x\nvariables: {key: a}\nsteps:\n  - name: c\n    condition: variables[variables.key] == nil\n"},
		{"version as number", "name: x\nversion: 2.0\nsteps:\n" + okStep},
		{"jump forward by name", "name: x\nsteps:\n  - name: c\n    condition: incident.severity == \"low\"\n    then: last\n" + okStep + "  - name: last\n    action: scan_host\n    parameters: {host_id: h}\n"},
		{"null optional fields", "name: x\ndescription:\ntriggers:\nvariables:\nsteps:\n  - name: a\n    action: scan_host\n    parameters: {host_id: h, scan_type: null}\n    output:\n"},
		{"sorted keys builtin", "name: x\nsteps:\n  - name: c\n    condition: keys(incident.raw_data) == [\"a\"]\n"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := Parse([]byte(c.yaml))
			if !r.Valid() {
				t.Fatalf("errors: %v", r.Errors)
			}
		})
	}
}

func TestParseNumbersMatchJSON(t *testing.T) {
	r := Parse([]byte("name: x\nvariables:\n  count: 3\n  hex: 0x10\n  ratio: 0.5\n  flag: true\n  day: 2024-01-02\n  none: null\nsteps:\n" + okStep))
	if !r.Valid() {
		t.Fatalf("errors: %v", r.Errors)
	}
	want := map[string]any{"count": 3.0, "hex": 16.0, "ratio": 0.5, "flag": true, "day": "2024-01-02", "none": nil}
	if !reflect.DeepEqual(r.Playbook.Variables, want) {
		t.Errorf("variables = %#v, want %#v", r.Playbook.Variables, want)
	}
}

func TestParseErrorsSorted(t *testing.T) {
	r := Parse([]byte("name: x\nbogus: 1\nsteps:\n  - name: a\n    action: nope\n  - name: a\n    action: scan_host\n"))
	if len(r.Errors) < 3 {
		t.Fatalf("errors: %v", r.Errors)
	}
	for i := 1; i < len(r.Errors); i++ {
		a, b := r.Errors[i-1], r.Errors[i]
		if a.Line > b.Line || (a.Line == b.Line && a.Message > b.Message) {
			t.Errorf("errors out of order: %v", r.Errors)
		}
	}
}

func TestParseHostile(t *testing.T) {
	// A billion-laughs document: each alias would multiply the one before.
	var laughs strings.Builder
	laughs.WriteString("a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n")
	for i := 'b'; i <= 'z'; i++ {
		prev := string(i - 1)
		laughs.WriteString(string(i) + ": &" + string(i) + " [*" + prev + ", *" + prev + ", *" + prev + ", *" + prev + ", *" + prev + "]\n")
	}
	cases := []struct {
		name string
		text string
	}{
		{"alias bomb", laughs.String()},
		{"deep flow nesting", strings.Repeat("[", 20000) + strings.Repeat("]", 20000)},
		{"deep block nesting", deepBlock(5000)},
		{"huge file", strings.Repeat("# padding\n", MaxSize/10+1)},
		{"binary", "\x00\x01\x02\xff"},
		{"many templates", "name: x\nsteps:\n  - name: a\n    action: create_ticket\n    parameters:\n      title: \"" + strings.Repeat("{{ incident.id }}", maxExpressions+1) + "\"\n"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := Parse([]byte(c.text))
			if r.Valid() {
				t.Fatal("hostile input accepted")
			}
			if len(r.Errors) == 0 {
				t.Fatal("no error reported")
			}
		})
	}
}

func deepBlock(depth int) string {
	var b strings.Builder
	for i := range depth {
		b.WriteString(strings.Repeat(" ", i) + "k:\n")
	}
	return b.String()
}

func TestValidateDecodedJSON(t *testing.T) {
	p := fullExamplePlaybook()
	if r := Validate(p); !r.Valid() || r.Playbook != p {
		t.Fatalf("full example: %v", r.Errors)
	}
	bad := fullExamplePlaybook()
	bad.Steps[0].Action = "nope"
	r := Validate(bad)
	if r.Valid() || len(r.Errors) != 1 || r.Errors[0].Line != 0 || !strings.Contains(r.Errors[0].Message, `unknown action "nope"`) {
		t.Errorf("errors = %+v", r.Errors)
	}
	if r := Validate(nil); r.Valid() || len(r.Errors) != 1 {
		t.Errorf("nil playbook: %+v", r)
	}
}
