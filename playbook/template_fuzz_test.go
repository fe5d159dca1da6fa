package playbook

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"

	yaml "go.yaml.in/yaml/v3"
)

// builtinTemplates returns every string in the built-in playbooks that
// holds a template, conditions included.
func builtinTemplates(tb testing.TB) []string {
	var out []string
	var walk func(v any)
	walk = func(v any) {
		switch v := v.(type) {
		case string:
			if hasTemplate(v) {
				out = append(out, v)
			}
		case map[string]any:
			for _, item := range v {
				walk(item)
			}
		case []any:
			for _, item := range v {
				walk(item)
			}
		}
	}
	for _, text := range builtinTexts() {
		var doc any
		if err := yaml.Unmarshal(text, &doc); err != nil {
			tb.Fatalf("built-in playbook: %v", err)
		}
		walk(doc)
	}
	return out
}

// FuzzRender renders template text from an untrusted author against an
// incident whose raw data came from an untrusted sender. It must never
// panic, must render the same way every time (workflow code renders it and
// is replayed), must leave the environment alone, and text without a
// template must come back unchanged.
func FuzzRender(f *testing.F) {
	sampleRaw, err := json.Marshal(sampleEnv().Incident.RawData)
	if err != nil {
		f.Fatal(err)
	}
	templates := builtinTemplates(f)
	if len(templates) == 0 {
		f.Fatal("no templates found in the built-in playbooks")
	}
	for _, tmpl := range templates {
		f.Add(tmpl, sampleRaw)
	}
	for _, tmpl := range []string{
		"", "plain", "{{", "}}", "{{}}", "{{ }}", "{{ {a: {b: 1} } }}", "{{ {a: {b: 1}} }}",
		"a {{ incident.raw_data.x }} b {{ incident.raw_data.x.y }}",
		"{{ incident.raw_data.x?.y ?? 'none' }}", "{{ toPairs(incident.raw_data) }}",
		"{{ incident.raw_data['a'][0] }}", "{{ 1/0 }}", "{{ 0.0/0.0 }} {{ -1 % 0 }}",
		"{{ map(1..3, # * 2) }} x", "{{ outputs.quarantine.message + variables.channel }}",
		"{{ \"\\u00ff\" }}{{ '}}' }}", strings.Repeat("{{ 1 }}", 50),
	} {
		f.Add(tmpl, sampleRaw)
	}
	f.Add("{{ incident.raw_data }}", []byte(`{"a":[1,{"b":null}],"c":1e308,"d":"\u0000"}`))
	f.Add("{{ incident.raw_data.a.b.c }}", []byte(`{"a":{"b":{"c":[[[[]]]]}}}`))

	f.Fuzz(func(t *testing.T, tmpl string, raw []byte) {
		env := fuzzEnv(raw)
		params := map[string]any{"p": tmpl, "l": []any{tmpl, map[string]any{"q": tmpl}}}

		first, err1 := Render(params, env)
		second, err2 := Render(params, env)
		if a, b := fmt.Sprintf("%#v %v", first, err1), fmt.Sprintf("%#v %v", second, err2); a != b {
			t.Fatalf("two renders differ:\n%s\n%s", a, b)
		}
		if !reflect.DeepEqual(params["p"], tmpl) {
			t.Fatal("Render changed its input")
		}
		if again := fuzzEnv(raw); fmt.Sprintf("%#v", again) != fmt.Sprintf("%#v", env) {
			t.Fatal("rendering changed the environment")
		}

		out, err := RenderText(tmpl, env)
		if !hasTemplate(tmpl) && (err != nil || out != tmpl) {
			t.Fatalf("text without a template changed: %q -> %q, %v", tmpl, out, err)
		}
		if err == nil && err1 != nil {
			// Both paths evaluate the same expressions; one failing
			// while the other succeeds would mean they disagree.
			t.Fatalf("RenderText succeeded where Render failed: %v", err1)
		}
	})
}

// fuzzEnv is the sample incident with raw data decoded from raw, or the
// sample's own raw data when raw is not a JSON object.
func fuzzEnv(raw []byte) Env {
	env := sampleEnv()
	var m map[string]any
	if json.Unmarshal(raw, &m) == nil && m != nil {
		env.Incident.RawData = m
	}
	return env
}
