package playbook

import (
	"reflect"
	"strings"
	"testing"
)

// sampleEnv is a phishing incident with a little of everything.
func sampleEnv() Env {
	return Env{
		Incident: IncidentEnv{
			ID: "7d5c1c3e-0000-4000-8000-000000000001", Number: "INC-2025-42", Type: "phishing",
			Severity: "high", Source: "mail-gateway", Title: "Invoice lure", Status: "triaged",
			RawData: map[string]any{
				"message_id": "msg-1",
				"sender":     "bad@evil.example",
				"recipients": []any{"alice@corp.example", "bob@corp.example"},
				"score":      7.5,
				"headers":    map[string]any{"b": "2", "a": "1"},
			},
			Verdict:            VerdictEnv{Classification: "malicious", Confidence: 0.93, Category: "phishing", Reasoning: "lookalike domain"},
			RecommendedActions: []string{"quarantine_email", "block_sender"},
		},
		Variables: map[string]any{"min_confidence": 0.8, "channel": "chat", "tags": []any{"a", "b"}},
		Outputs: map[string]any{
			"quarantine": map[string]any{"status": "completed", "success": true, "message": "quarantined", "action_id": "act-1"},
		},
		Playbook: PlaybookEnv{Name: "Phishing triage", Version: "1.2"},
	}
}

func TestRender(t *testing.T) {
	cases := []struct {
		name string
		in   any
		want any
	}{
		{"plain text untouched", "no templates here", "no templates here"},
		{"typed string", "{{ incident.raw_data.message_id }}", "msg-1"},
		{"typed number", "{{ incident.raw_data.score }}", 7.5},
		{"typed bool", "{{ incident.verdict.confidence >= variables.min_confidence }}", true},
		{"typed list", "{{ incident.raw_data.recipients }}", []any{"alice@corp.example", "bob@corp.example"}},
		{"typed map", "{{ outputs.quarantine }}", map[string]any{"status": "completed", "success": true, "message": "quarantined", "action_id": "act-1"}},
		{"surrounding space keeps type", "  {{ 1 + 2 }} ", 3},
		{"concatenation", "Playbook {{ playbook.name }} on {{ incident.number }}", "Playbook Phishing triage on INC-2025-42"},
		{"numbers in text", "score={{ incident.raw_data.score }} n={{ 2 * 3 }} c={{ incident.verdict.confidence }}", "score=7.5 n=6 c=0.93"},
		{"bool in text", "ok: {{ outputs.quarantine.success }}", "ok: true"},
		{"list and map in text", "{{ incident.raw_data.recipients }} {{ incident.raw_data.headers }}", `["alice@corp.example","bob@corp.example"] {"a":"1","b":"2"}`},
		{"no HTML escaping", "{{ ['<a>'] }}!", `["<a>"]!`},
		{"missing field alone is nil", "{{ incident.raw_data.nope }}", nil},
		{"missing field in text is empty", "id=[{{ incident.raw_data.nope }}]", "id=[]"},
		{"fallback", "{{ incident.raw_data.nope ?? incident.raw_data.message_id }}", "msg-1"},
		{"optional chaining", "{{ incident.raw_data.nope?.deeper ?? 'none' }}", "none"},
		{"index", "{{ incident.raw_data.recipients[1] }}", "bob@corp.example"},
		{"sorted keys", "{{ keys(incident.raw_data.headers) }}", []any{"a", "b"}},
		{"sorted values", "{{ values(incident.raw_data.headers) }}", []any{"1", "2"}},
		{"sorted pairs", "{{ toPairs(incident.raw_data.headers) }}", []any{[]any{"a", "1"}, []any{"b", "2"}}},
		{"nested map", map[string]any{"a": map[string]any{"b": "{{ incident.severity }}", "c": 1.0}},
			map[string]any{"a": map[string]any{"b": "high", "c": 1.0}}},
		{"nested list", []any{"{{ variables.channel }}", []any{"x-{{ incident.type }}"}, nil, true},
			[]any{"chat", []any{"x-phishing"}, nil, true}},
		{"conditional", `{{ incident.severity == "critical" ? "critical" : "high" }}`, "high"},
		{"recommended actions", "{{ incident.recommended_actions }}", []string{"quarantine_email", "block_sender"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			out, err := Render(map[string]any{"p": c.in}, sampleEnv())
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(out["p"], c.want) {
				t.Errorf("got %#v, want %#v", out["p"], c.want)
			}
		})
	}
}

func TestRenderText(t *testing.T) {
	cases := []struct {
		in, want string
	}{
		{"Who received {{ incident.raw_data.message_id }}?", "Who received msg-1?"},
		{"{{ incident.raw_data.recipients }}", `["alice@corp.example","bob@corp.example"]`},
		{"{{ incident.raw_data.nope }}", ""},
		{"plain", "plain"},
	}
	for _, c := range cases {
		got, err := RenderText(c.in, sampleEnv())
		if err != nil || got != c.want {
			t.Errorf("RenderText(%q) = %q, %v; want %q", c.in, got, err, c.want)
		}
	}
	if _, err := RenderText("{{ incident.nope }}", sampleEnv()); err == nil {
		t.Error("RenderText accepted a bad template")
	}
}

func TestRenderDoesNotChangeInput(t *testing.T) {
	in := map[string]any{"a": []any{"{{ incident.number }}"}, "b": map[string]any{"c": "{{ incident.id }}"}}
	if _, err := Render(in, sampleEnv()); err != nil {
		t.Fatal(err)
	}
	want := map[string]any{"a": []any{"{{ incident.number }}"}, "b": map[string]any{"c": "{{ incident.id }}"}}
	if !reflect.DeepEqual(in, want) {
		t.Errorf("input changed: %#v", in)
	}
	if out, err := Render(nil, sampleEnv()); out != nil || err != nil {
		t.Errorf("Render(nil) = %v, %v", out, err)
	}
}

func TestRenderErrors(t *testing.T) {
	cases := []struct {
		name   string
		params map[string]any
		msg    string
	}{
		{"field of missing field", map[string]any{"host": "{{ incident.raw_data.nope.deeper }}"}, "parameter host: template {{ incident.raw_data.nope.deeper }}: cannot fetch deeper"},
		{"index out of range", map[string]any{"user": "{{ incident.raw_data.recipients[5] }}"}, "index out of range"},
		{"does not compile", map[string]any{"x": "a {{ incident.nope }}"}, "has no field nope"},
		{"unclosed", map[string]any{"x": "a {{ incident.id"}, "without a closing"},
		{"nested path", map[string]any{"a": []any{map[string]any{"b": "{{ 1 / nil }}"}}}, "parameter a[0].b:"},
		{"memory budget", map[string]any{"x": "{{ map(1..(len(incident.title) * 100000), # * 2) }}"}, "memory budget"},
		{"step budget", map[string]any{"x": "{{ let r = 1..len(incident.title) * 300; count(r, {any(r, {# < 0})}) }}"}, "step budget"},
		{"first error by sorted key", map[string]any{"b": "{{ x }}", "a": "{{ y }}"}, "parameter a:"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := Render(c.params, sampleEnv())
			if err == nil || !strings.Contains(err.Error(), c.msg) {
				t.Errorf("error = %v, want %q", err, c.msg)
			}
		})
	}
}

func TestRenderDeterministic(t *testing.T) {
	params := map[string]any{
		"text": "{{ keys(incident.raw_data) }} {{ values(incident.raw_data.headers) }} {{ incident.raw_data }}",
		"list": "{{ toPairs(incident.raw_data) }}",
		"b":    "{{ missing }}-{{ undefined }}",
	}
	first, firstErr := Render(params, sampleEnv())
	for range 50 {
		again, err := Render(params, sampleEnv())
		if !reflect.DeepEqual(again, first) || errString(err) != errString(firstErr) {
			t.Fatalf("render differs: %#v / %v vs %#v / %v", again, err, first, firstErr)
		}
	}
	params = map[string]any{"text": params["text"], "list": params["list"]}
	first, err := Render(params, sampleEnv())
	if err != nil {
		t.Fatal(err)
	}
	for range 50 {
		again, _ := Render(params, sampleEnv())
		if !reflect.DeepEqual(again, first) {
			t.Fatalf("render differs: %#v vs %#v", again, first)
		}
	}
}

func errString(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

func TestEval(t *testing.T) {
	cases := []struct {
		name      string
		condition string
		want      bool
		err       string
	}{
		{"true", `incident.verdict.classification == "malicious" && incident.verdict.confidence >= variables.min_confidence`, true, ""},
		{"false", `incident.severity in ["critical"]`, false, ""},
		{"output", `outputs.quarantine.success`, true, ""},
		{"missing output with fallback", `outputs.scan?.success ?? false`, false, ""},
		{"recommended", `"block_sender" in incident.recommended_actions`, true, ""},
		{"nil counts as false", `incident.raw_data.flag`, false, ""},
		{"string is not a boolean", `variables.channel`, false, "condition:"},
		{"wrong types", `incident.raw_data.score > "x"`, false, "condition:"},
		{"empty", `  `, false, "expression is empty"},
		{"not boolean", `incident.severity`, false, "expected bool"},
		{"disabled builtin", `now() != nil`, false, "now"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := Eval(c.condition, sampleEnv())
			if c.err != "" {
				if err == nil || !strings.Contains(err.Error(), c.err) {
					t.Fatalf("error = %v, want %q", err, c.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got != c.want {
				t.Errorf("got %v, want %v", got, c.want)
			}
		})
	}
}

func TestNextIndex(t *testing.T) {
	p := &Playbook{Steps: []Step{
		{Name: "a", Action: "scan_host"},
		{Name: "c1", Condition: "true", Then: "e", Else: JumpStop},
		{Name: "c2", Condition: "true", Then: JumpContinue},
		{Name: "d", AIAnalysis: &AIAnalysis{Question: "?"}},
		{Name: "e", Parallel: [][]Step{{{Name: "x", Action: "scan_host"}}}},
		{Name: "c3", Condition: "true", Then: "gone", Else: "a"},
	}}
	cases := []struct {
		name   string
		i      int
		result bool
		want   int
	}{
		{"action continues", 0, false, 1},
		{"then jumps by name", 1, true, 4},
		{"else stops", 1, false, -1},
		{"then continue", 2, true, 3},
		{"empty else continues", 2, false, 3},
		{"ai continues", 3, true, 4},
		{"parallel continues", 4, false, 5},
		{"unknown target stops", 5, true, -1},
		{"backward target still resolves by name", 5, false, 0},
		{"past the end", 6, true, -1},
		{"negative", -1, true, -1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := p.NextIndex(c.i, c.result); got != c.want {
				t.Errorf("NextIndex(%d, %v) = %d, want %d", c.i, c.result, got, c.want)
			}
		})
	}
	last := &Playbook{Steps: []Step{{Name: "only", Condition: "true"}}}
	if got := last.NextIndex(0, true); got != -1 {
		t.Errorf("last step continues to %d, want -1", got)
	}
	var nilPlaybook *Playbook
	if nilPlaybook.NextIndex(0, true) != -1 || nilPlaybook.StepCount() != 0 {
		t.Error("nil playbook")
	}
}

// TestRunFullExample walks the example the way the workflow does: render
// each action's parameters, evaluate each condition, follow NextIndex.
func TestRunFullExample(t *testing.T) {
	r := Parse([]byte(fullExample))
	if !r.Valid() {
		t.Fatal(r.Errors)
	}
	p, env := r.Playbook, sampleEnv()
	// The run's variables are the playbook's, overridden by the run.
	env.Variables = map[string]any{"notify_channel": "chat", "min_confidence": p.Variables["min_confidence"]}
	var visited []string
	for i := 0; i >= 0; {
		s := p.Steps[i]
		visited = append(visited, s.Name)
		result := false
		switch s.Kind() {
		case KindCondition:
			var err error
			if result, err = Eval(s.Condition, env); err != nil {
				t.Fatal(err)
			}
		case KindAction:
			if _, err := Render(s.Parameters, env); err != nil {
				t.Fatal(err)
			}
		case KindParallel:
			for _, branch := range s.Parallel {
				for _, bs := range branch {
					out, err := Render(bs.Parameters, env)
					if err != nil {
						t.Fatal(err)
					}
					visited = append(visited, bs.Name+"("+out[firstKey(out)].(string)+")")
				}
			}
		}
		i = p.NextIndex(i, result)
	}
	want := "quarantine check_verdict ask contain block(bad@evil.example) notify(chat)"
	if got := strings.Join(visited, " "); got != want {
		t.Errorf("visited %q, want %q", got, want)
	}
}

func firstKey(m map[string]any) string {
	keys := sortedKeysOf(m)
	return keys[0]
}
