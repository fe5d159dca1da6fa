package playbook

import (
	"strings"
	"testing"
	"time"
)

// TestValidateRefusesCostlyExpressions: conditions and templates that are
// visibly too costly are refused when the playbook is checked, with the
// line of the step and the column inside the expression.
func TestValidateRefusesCostlyExpressions(t *testing.T) {
	cases := []struct {
		name, yaml string
		line       int
		msg        string
	}{
		{"nested iteration in a condition",
			"name: x\nsteps:\n  - name: gate\n    condition: 'let r = 1..2000; all(r, {all(r, {all(r, {# > 0})})})'\n    then: stop\n  - name: scan\n    action: scan_host\n    parameters: {host_id: h}\n",
			4, "nested iteration takes up to 4000000 steps (at most 1000000) (column 26)"},
		{"huge range in a template",
			"name: x\nsteps:\n  - name: scan\n    action: scan_host\n    parameters:\n      host_id: '{{ len(1..50000000) }}'\n",
			6, "range of 50000000 elements is too large"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := Parse([]byte(c.yaml))
			if r.Valid() {
				t.Fatal("costly expression accepted")
			}
			for _, p := range r.Errors {
				if p.Line == c.line && strings.Contains(p.Message, c.msg) {
					return
				}
			}
			t.Fatalf("errors %v do not report %q at line %d", r.Errors, c.msg, c.line)
		})
	}
}

// TestEvalOverBudget: a condition whose cost shows only at run time stops
// with the same error on every run, as replayed workflow code needs; so
// does a template. The bound on time only tells a cut-off from a run of
// minutes on a loaded machine; the speed is a benchmark's to measure.
func TestEvalOverBudget(t *testing.T) {
	const cond = `let r = 1..(len(incident.number) * 400); all(r, {all(r, {all(r, {# > 0})})})`
	var first string
	for i := range 3 {
		start := time.Now()
		got, err := Eval(cond, sampleEnv())
		if took := time.Since(start); took > 10*time.Second {
			t.Errorf("run %d took %v", i, took)
		}
		if err == nil || got || !strings.Contains(err.Error(), "exceeded its step budget") {
			t.Fatalf("Eval = %v, %v; want the budget exceeded", got, err)
		}
		if i == 0 {
			first = err.Error()
		} else if err.Error() != first {
			t.Fatalf("run %d: %q, first run: %q", i, err, first)
		}
	}
	_, err := Render(map[string]any{"x": "{{ " + cond + " }}"}, sampleEnv())
	if err == nil || !strings.Contains(err.Error(), "parameter x") || !strings.Contains(err.Error(), "step budget") {
		t.Fatalf("Render error = %v", err)
	}
}
