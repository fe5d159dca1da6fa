package playbook

import (
	"reflect"
	"strings"
	"testing"

	"github.com/vigil-soc/vigil/actions"
)

func TestBuiltinsValid(t *testing.T) {
	texts := builtinTexts()
	if len(texts) != 3 {
		t.Fatalf("%d built-in files, want 3", len(texts))
	}
	for _, text := range texts {
		r := Parse(text)
		if !r.Valid() || len(r.Warnings) != 0 {
			name := "?"
			if r.Playbook != nil {
				name = r.Playbook.Name
			}
			t.Errorf("%s: errors %v, warnings %v", name, r.Errors, r.Warnings)
		}
	}
	got := Builtins()
	if len(got) != len(texts) {
		t.Fatalf("Builtins returned %d playbooks, want %d", len(got), len(texts))
	}
	want := map[string]string{
		"Phishing triage":     "phishing",
		"Malware containment": "malware",
		"Suspicious login":    "suspicious login",
	}
	for _, p := range got {
		typ, ok := want[p.Name]
		if !ok {
			t.Errorf("unexpected built-in %q", p.Name)
			continue
		}
		if p.Triggers.IncidentType != typ || p.Triggers.AutoRun {
			t.Errorf("%s: triggers %+v", p.Name, p.Triggers)
		}
		if p.Version != "1.0" {
			t.Errorf("%s: version %q", p.Name, p.Version)
		}
		text, ok := BuiltinYAML(p.Name)
		if !ok || !reflect.DeepEqual(Parse(text).Playbook, p) {
			t.Errorf("BuiltinYAML(%q) does not match Builtins", p.Name)
		}
	}
	if _, ok := BuiltinYAML("No such playbook"); ok {
		t.Error("BuiltinYAML found an unknown name")
	}
	// Callers own what they get.
	got[0].Name = "changed"
	if Builtins()[0].Name == "changed" {
		t.Error("Builtins shares state between calls")
	}
}

// TestBuiltinsRender renders every action of every built-in against
// incidents shaped like the ones each is meant for, and checks the result
// against the action type, so a built-in cannot ship templates that only
// compile.
func TestBuiltinsRender(t *testing.T) {
	incidents := map[string]IncidentEnv{
		"Phishing triage": {Number: "INC-2025-1", Type: "phishing", Severity: "high", Title: "Invoice lure",
			RawData: map[string]any{"message_id": "m-1", "sender": "bad@evil.example", "subject": "Invoice",
				"recipients": []any{"alice@corp.example"}},
			Verdict: VerdictEnv{Classification: "malicious", Confidence: 0.9}},
		"Malware containment": {Number: "INC-2025-2", Type: "malware", Severity: "critical", Title: "Trojan",
			RawData: map[string]any{"event": map[string]any{"HostnameField": "ws-042", "DetectName": "Trojan.X"}}},
		"Suspicious login": {Number: "INC-2025-3", Type: "suspicious login", Severity: "medium", Source: "idp",
			RawData: map[string]any{"username": "alice", "source_ip": "203.0.113.9"}},
	}
	for _, p := range Builtins() {
		t.Run(p.Name, func(t *testing.T) {
			env := Env{Incident: incidents[p.Name], Variables: p.Variables, Outputs: map[string]any{},
				Playbook: PlaybookEnv{Name: p.Name, Version: p.Version}}
			check := func(s Step) {
				switch s.Kind() {
				case KindAction:
					params, err := Render(s.Parameters, env)
					if err != nil {
						t.Fatalf("%s: %v", s.Name, err)
					}
					typ, _ := actions.Lookup(s.Action)
					if _, errs := typ.Validate(params); errs != nil {
						t.Errorf("%s: rendered %v: %v", s.Name, params, errs)
					}
					if s.Output != "" {
						env.Outputs[s.Output] = map[string]any{"status": "completed", "success": true, "message": "done"}
					}
				case KindAIAnalysis:
					q, err := RenderText(s.AIAnalysis.Question, env)
					if err != nil || strings.Contains(q, "{{") {
						t.Fatalf("%s: %v %v", s.Name, q, err)
					}
					env.Outputs[s.Output] = map[string]any{"answer": "yes", "classification": "malicious", "confidence": 0.9}
				case KindCondition:
					if _, err := Eval(s.Condition, env); err != nil {
						t.Fatalf("%s: %v", s.Name, err)
					}
				}
			}
			for _, s := range p.Steps {
				check(s)
				for _, branch := range s.Parallel {
					for _, bs := range branch {
						check(bs)
					}
				}
			}
		})
	}
}

func TestBuiltinPaths(t *testing.T) {
	malware := builtinNamed(t, "Malware containment")
	cases := []struct {
		severity string
		want     []string
	}{
		{"critical", []string{"scan_host", "check_severity", "isolate_host", "open_ticket"}},
		{"high", []string{"scan_host", "check_severity", "isolate_host", "open_ticket"}},
		{"medium", []string{"scan_host", "check_severity", "open_ticket"}},
		{"low", []string{"scan_host", "check_severity", "open_ticket"}},
	}
	for _, c := range cases {
		t.Run(c.severity, func(t *testing.T) {
			env := Env{Incident: IncidentEnv{Severity: c.severity}}
			if got := runPath(t, malware, env); !reflect.DeepEqual(got, c.want) {
				t.Errorf("path %v, want %v", got, c.want)
			}
		})
	}
	phish := builtinNamed(t, "Phishing triage")
	benign := Env{Incident: IncidentEnv{Verdict: VerdictEnv{Classification: "benign", Confidence: 0.99}}, Variables: phish.Variables}
	if got := runPath(t, phish, benign); !reflect.DeepEqual(got, []string{"analyse_message", "check_verdict"}) {
		t.Errorf("benign phish path %v", got)
	}
	lowConfidence := Env{Outputs: map[string]any{"analysis": map[string]any{"classification": "malicious", "confidence": 0.5}}, Variables: phish.Variables}
	if got := runPath(t, phish, lowConfidence); len(got) != 2 {
		t.Errorf("low confidence phish path %v", got)
	}
}

func builtinNamed(t *testing.T, name string) *Playbook {
	t.Helper()
	for _, p := range Builtins() {
		if p.Name == name {
			return p
		}
	}
	t.Fatalf("no built-in %q", name)
	return nil
}

// runPath lists the top-level steps a run visits, evaluating conditions only.
func runPath(t *testing.T, p *Playbook, env Env) []string {
	t.Helper()
	var out []string
	for i := 0; i >= 0; {
		s := p.Steps[i]
		out = append(out, s.Name)
		result := false
		if s.Kind() == KindCondition {
			var err error
			if result, err = Eval(s.Condition, env); err != nil {
				t.Fatalf("%s: %v", s.Name, err)
			}
		}
		i = p.NextIndex(i, result)
	}
	return out
}
