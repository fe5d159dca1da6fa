package policy_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/vigil-soc/vigil/policy"
)

// sampleEnv is an isolate-host request by a senior on a critical,
// triaged incident.
func sampleEnv() policy.Env {
	return policy.Env{
		Action: policy.ActionEnv{Type: "isolate_host", Parameters: map[string]any{
			"hostname": "ws-042", "count": 3.0, "tags": []any{"prod", "finance"},
		}},
		Incident: policy.IncidentEnv{
			Present: true, ID: "7d1c1f5e-4a39-4f0e-9a57-1d9c0b8e2f10", Number: "INC-2026-0007",
			Severity: "critical", SeverityRank: 4, Type: "malware", Source: "edr",
			Verdict: policy.VerdictEnv{Classification: "true_positive", Confidence: 0.93, Category: "ransomware"},
		},
		Requester: policy.RequesterEnv{Username: "sam", Role: "senior", RoleRank: 2},
	}
}

func TestCompileAcceptsEveryEnvField(t *testing.T) {
	cases := map[string]bool{
		`action.type == "isolate_host"`:                                                       true,
		`action.parameters.hostname startsWith "ws-"`:                                         true,
		`action.parameters.count > 2`:                                                         true,
		`"finance" in action.parameters.tags`:                                                 true,
		`"hostname" in keys(action.parameters)`:                                               true,
		`len(action.parameters) == 3`:                                                         true,
		`incident.present`:                                                                    true,
		`incident.id != ""`:                                                                   true,
		`incident.number matches "^INC-\\d{4}-\\d{4,}$"`:                                      true,
		`incident.severity in ["high", "critical"]`:                                           true,
		`incident.severity_rank >= 3`:                                                         true,
		`incident.type == "phishing"`:                                                         false,
		`upper(incident.source) == "EDR"`:                                                     true,
		`incident.verdict.classification == "true_positive"`:                                  true,
		`incident.verdict.confidence >= 0.9`:                                                  true,
		`incident.verdict.category endsWith "ware"`:                                           true,
		`requester.username == "sam"`:                                                         true,
		`requester.role == "analyst"`:                                                         false,
		`requester.role_rank >= 2 and not (incident.severity_rank < 2)`:                       true,
		`any(action.parameters.tags, {# == "prod"})`:                                          true,
		`type(action.parameters.count) == "string" && action.parameters.count startsWith "x"`: false,
		"action.type == \"isolate_host\" &&\n  incident.severity_rank == 4":                   true,
	}
	env := sampleEnv()
	for cond, want := range cases {
		t.Run(cond, func(t *testing.T) {
			p, err := policy.Compile(cond)
			if err != nil {
				t.Fatalf("compile: %v", err)
			}
			if p.Source() != cond {
				t.Fatalf("Source() = %q", p.Source())
			}
			got, err := p.Match(env)
			if err != nil || got != want {
				t.Fatalf("Match = %v, %v; want %v", got, err, want)
			}
		})
	}
}

func TestCompileRejects(t *testing.T) {
	cases := []struct {
		name      string
		condition string
		line, col int
		message   string
	}{
		{"type mismatch", `incident.severity > 3`, 1, 19, "mismatched types"},
		{"unknown field", `action.typo == "x"`, 1, 8, "no field typo"},
		{"unknown variable", `actor.name == "x"`, 1, 1, "unknown name actor"},
		{"syntax error on line 2", "action.type == \"isolate_host\" &&\n  (incident.present ||", 2, 22, "unexpected token EOF"},
		{"unknown field on line 3", "incident.present and\nincident.severity_rank > 2 and\n  requester.rolerank > 1", 3, 13, "no field rolerank"},
		{"not a boolean", `action.type`, 1, 1, "expected bool"},
		{"disabled builtin", `now() != nil`, 1, 1, "unknown name now"},
		{"empty", "", 1, 1, "empty"},
		{"blank", " \n\t", 1, 1, "empty"},
		{"too long", "true" + strings.Repeat(" ", policy.MaxConditionLength), 1, policy.MaxConditionLength + 1, "longer than 4096"},
		{"nested iteration over a large range", `let r = 1..2000; all(r, {all(r, {all(r, {# > 0})})})`, 1, 26, "nested iteration takes up to 4000000 steps"},
		{"huge literal range", `len(1..100000000) > 0`, 1, 6, "range of 100000000 elements is too large"},
		{"predicates nested too deep", `any(action.parameters.a, {any(#.b, {any(#.c, {any(#.d, {any(#.e, {true})})})})})`, 1, 0, "nested 5 deep"},
		{"too many nodes", strings.TrimSuffix(strings.Repeat("1+", 1200), "+") + " > 0", 1, 0, "maximum allowed nodes"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := policy.Compile(tc.condition)
			var ce *policy.CompileError
			if !errors.As(err, &ce) {
				t.Fatalf("error %v (%T) is not a *CompileError", err, err)
			}
			if ce.Line != tc.line || (tc.col != 0 && ce.Column != tc.col) {
				t.Errorf("position %d:%d, want %d:%d (%v)", ce.Line, ce.Column, tc.line, tc.col, ce)
			}
			if !strings.Contains(ce.Message, tc.message) {
				t.Errorf("message %q does not mention %q", ce.Message, tc.message)
			}
			if !strings.HasPrefix(ce.Error(), "line ") {
				t.Errorf("Error() = %q does not lead with the position", ce.Error())
			}
		})
	}
}

func TestMatchRunTimeErrors(t *testing.T) {
	cases := map[string]string{
		"wrong parameter type": `action.parameters.hostname > 5`,
		"member of missing":    `action.parameters.missing.name == "x"`,
		"memory budget":        `len(1..(len(action.type) * 200000)) > 0`,
		"nested walks":         `all(1..1000, {all(1..1000, {true})})`,
	}
	for name, cond := range cases {
		t.Run(name, func(t *testing.T) {
			p, err := policy.Compile(cond)
			if err != nil {
				t.Fatalf("compile: %v", err)
			}
			got, err := p.Match(sampleEnv())
			if err == nil || got {
				t.Fatalf("Match = %v, %v; want a run-time error", got, err)
			}
			if strings.Contains(err.Error(), "\n") {
				t.Errorf("error spans lines: %q", err)
			}
		})
	}
}

// TestMatchOverBudget runs a rule that passes the static checks (the size
// of its range is only known at run time) and would take 10^11 steps: it
// stops, says why, and stops the same way every time. How fast it stops is
// measured by BenchmarkMatchOverBudget (tens of milliseconds); the bound
// here only tells a cut-off from a run of minutes on a loaded machine.
func TestMatchOverBudget(t *testing.T) {
	p, err := policy.Compile(`let r = 1..(len(action.type) * 400); all(r, {all(r, {all(r, {# > 0})})})`)
	if err != nil {
		t.Fatalf("compile: %v", err)
	}
	var first string
	for i := range 3 {
		start := time.Now()
		got, err := p.Match(sampleEnv())
		if took := time.Since(start); took > 10*time.Second {
			t.Errorf("run %d took %v", i, took)
		}
		if err == nil || got || !strings.Contains(err.Error(), "exceeded its step budget of 1000000 steps") {
			t.Fatalf("Match = %v, %v; want the budget exceeded", got, err)
		}
		if i == 0 {
			first = err.Error()
		} else if err.Error() != first {
			t.Fatalf("run %d: %q, first run: %q", i, err, first)
		}
	}
}

// BenchmarkMatchOverBudget measures how long a rule that would take 10^11
// steps runs before the step budget cuts it off (the goal: well within a
// second).
func BenchmarkMatchOverBudget(b *testing.B) {
	p, err := policy.Compile(`let r = 1..(len(action.type) * 400); all(r, {all(r, {all(r, {# > 0})})})`)
	if err != nil {
		b.Fatalf("compile: %v", err)
	}
	env := sampleEnv()
	for b.Loop() {
		if _, err := p.Match(env); err == nil {
			b.Fatal("want the budget exceeded")
		}
	}
}
