package exprbudget

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/expr-lang/expr"
	"github.com/expr-lang/expr/file"
	"github.com/expr-lang/expr/vm"
)

// testEnv is an environment in the shape the callers use: the meter sits in
// an unexported field expressions cannot see.
type testEnv struct {
	N     int            `expr:"n"`
	Items []any          `expr:"items"`
	Text  string         `expr:"text"`
	Data  map[string]any `expr:"data"`
	meter *Meter
}

func testMeterOf(env any) *Meter {
	if e, ok := env.(testEnv); ok {
		return e.meter
	}
	return nil
}

var testLimits = Limits{Steps: 100_000, MaxRange: 1000, MaxNesting: 3}

func compileTest(t testing.TB, src string) (*vm.Program, error) {
	t.Helper()
	return Compile(src, testLimits, testMeterOf, expr.Env(testEnv{}))
}

// runTest evaluates prog with a fresh meter and reports the steps used.
func runTest(prog *vm.Program, env testEnv) (any, int64, error) {
	env.meter = NewMeter(testLimits.Steps)
	out, err := vm.Run(prog, env)
	return out, env.meter.Used(), err
}

func TestStaticRefusals(t *testing.T) {
	cases := []struct {
		name, src string
		line, col int // col is expr's 0-based column
		msg       string
	}{
		{"huge literal range", `len(1..2000000) > 0`, 1, 5, "range of 2000000 elements"},
		{"huge negative bound", `len(-9223372036854775807..9223372036854775807)`, 1, 0, "too large"},
		{"nested over known ranges", `let r = 1..200; all(r, {all(r, {all(r, {# > 0})})})`, 1, 32, "up to 8000000 steps"},
		{"nested over a mapped range", `let r = map(1..500, #); any(r, {any(r, {# == 1})})`, 1, 32, "up to 250000 steps"},
		{"too deep", `any(items, {any(items, {any(items, {any(items, {true})})})})`, 1, 36, "nested 4 deep"},
		{"second line", "n > 0 &&\n  len(1..5000) > 0", 2, 7, "range of 5000"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := compileTest(t, c.src)
			var fe *file.Error
			if !errors.As(err, &fe) {
				t.Fatalf("error %v is not a *file.Error", err)
			}
			if !strings.Contains(fe.Message, c.msg) {
				t.Errorf("message %q does not mention %q", fe.Message, c.msg)
			}
			if fe.Line != c.line || (c.col != 0 && fe.Column != c.col) {
				t.Errorf("position %d:%d, want %d:%d", fe.Line, fe.Column, c.line, c.col)
			}
		})
	}
}

// TestSameResults checks that metering changes no result: each expression
// gives what expr compiled without the rewrite gives.
func TestSameResults(t *testing.T) {
	env := testEnv{N: 3, Items: []any{"a", "b", "c"}, Text: "hello world",
		Data: map[string]any{"k": []any{1.0, 2.0}, "s": "x"}}
	cases := []string{
		`n in 1..1000000000`,
		`all(items, {# in ["a", "b", "c"]})`,
		`map(filter(1..10, # % 2 == 0), # * n)`,
		`text matches "^h.*d$"`,
		`text matches data.s`,
		`data.missing matches data.s`,
		`sum(1..100)`,
		`reduce(1..5, #acc + #, 0)`,
		`sortBy(items, {#})[0] + join(items, "-")`,
		`let r = 1..30; count(r, {any(r, {# == 3})})`,
		`"k" in data && len(data.k) == 2`,
		`upper(text) contains "WORLD"`,
		`{a: 1}.a + len(toJSON(data))`,
		`groupBy(1..9, # % 3)[1]`,
		`len(filter(items, # != "a")) + count(items, # == "b")`,
		`all(items, # != "z") && all(items, len(#) == 1)`,
		`find(data.k, # > 1) ?? 0`,
		`items == ["a", "b", "c"] and text startsWith "he"`,
	}
	for _, src := range cases {
		t.Run(src, func(t *testing.T) {
			plain, err := expr.Compile(src, expr.Env(testEnv{}))
			if err != nil {
				t.Fatal(err)
			}
			want, wantErr := vm.Run(plain, env)
			prog, err := compileTest(t, src)
			if err != nil {
				t.Fatal(err)
			}
			got, _, err := runTest(prog, env)
			if !reflect.DeepEqual(got, want) || (err == nil) != (wantErr == nil) {
				t.Errorf("got %#v, %v; want %#v, %v", got, err, want, wantErr)
			}
		})
	}
}

// TestRunTimeCutOff runs expressions that pass the static check but spend
// the budget, and checks they stop with ErrBudgetExceeded at the same step
// every time.
func TestRunTimeCutOff(t *testing.T) {
	big := make([]any, 5000)
	for i := range big {
		big[i] = "item"
	}
	env := testEnv{N: 900, Items: big, Text: strings.Repeat("ab", 4096)}
	cases := []string{
		`let r = 1..n; all(r, {all(r, {all(r, {# > 0})})})`,
		`any(items, {any(items, {# == "x"})})`,
		`any(1..n, {"x" in items})`,
		`any(1..n, {len(text + text) == 0})`,
		`any(1..n, {text matches "(\\pL{1,100}x)+"})`,
		`any(1..n, {"a" matches items[#] + "{1,1000}"})`,
		`let s = text + text; let t = s + s; let u = t + t; any(1..n, {len(u + u) < 0})`,
	}
	for _, src := range cases {
		t.Run(src, func(t *testing.T) {
			prog, err := compileTest(t, src)
			if err != nil {
				t.Fatal(err)
			}
			_, used, err := runTest(prog, env)
			if !errors.Is(err, ErrBudgetExceeded) {
				t.Fatalf("error = %v, want the budget exceeded", err)
			}
			if used <= testLimits.Steps {
				t.Errorf("stopped after %d steps, within the budget", used)
			}
			for range 3 {
				if _, again, _ := runTest(prog, env); again != used {
					t.Fatalf("stopped after %d steps, then after %d", used, again)
				}
			}
		})
	}
}

func TestMeteringFunctionsAreNotCallable(t *testing.T) {
	for _, src := range []string{`$budget_step($env, 1, 1) == 1`, `$budget_charge($env, items) == nil`} {
		if _, err := compileTest(t, src); err == nil {
			t.Errorf("%s compiles", src)
		}
	}
}

func TestRunWithoutMeterFails(t *testing.T) {
	prog, err := compileTest(t, `any(items, {# == "a"})`)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := vm.Run(prog, testEnv{Items: []any{"a"}}); err == nil || !strings.Contains(err.Error(), "no step meter") {
		t.Fatalf("error = %v, want a missing meter", err)
	}
}
