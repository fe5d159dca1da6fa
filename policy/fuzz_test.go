package policy_test

import (
	"errors"
	"testing"
	"time"

	"github.com/vigil-soc/vigil/policy"
)

// FuzzRuleCondition compiles arbitrary conditions and runs those that
// compile: compile errors carry a position, and a run never panics, ends
// well within the time the step budget allows and gives the same answer
// twice.
func FuzzRuleCondition(f *testing.F) {
	for _, seed := range []string{
		`action.type == "isolate_host" && incident.severity == "critical"`,
		`"finance" in action.parameters.tags`,
		`incident.number matches "^INC-\\d{4}-\\d{4,}$"`,
		`requester.role_rank >= 2 and not (incident.severity_rank < 2)`,
		`any(action.parameters.tags, {# == "prod"})`,
		`incident.verdict.confidence >= 0.9 && incident.verdict.category endsWith "ware"`,
		`"hostname" in keys(action.parameters) && len(action.parameters) == 3`,
		`let r = 1..2000; all(r, {all(r, {all(r, {# > 0})})})`,
		`let r = 1..(len(action.type) * 400); all(r, {all(r, {all(r, {# > 0})})})`,
		`action.parameters.hostname matches action.parameters.hostname + "{1,1000}"`,
		`len(1..(len(action.type) * 200000)) > 0`,
		"action.type == \"isolate_host\" &&\n  (incident.present ||",
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, condition string) {
		p, err := policy.Compile(condition)
		if err != nil {
			var ce *policy.CompileError
			if !errors.As(err, &ce) || ce.Line < 1 || ce.Column < 1 {
				t.Fatalf("compile error %v (%T) without a position", err, err)
			}
			return
		}
		start := time.Now()
		got, err := p.Match(sampleEnv())
		if took := time.Since(start); took > 5*time.Second {
			t.Fatalf("evaluation took %v", took)
		}
		again, err2 := p.Match(sampleEnv())
		if got != again || errString(err) != errString(err2) {
			t.Fatalf("two runs differ: %v, %v then %v, %v", got, err, again, err2)
		}
	})
}

func errString(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}
