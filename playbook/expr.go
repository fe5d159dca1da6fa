package playbook

import (
	"errors"
	"fmt"
	"reflect"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/expr-lang/expr"
	"github.com/expr-lang/expr/ast"
	"github.com/expr-lang/expr/file"
	"github.com/expr-lang/expr/vm"

	"github.com/vigil-soc/vigil/internal/exprbudget"
)

// Bounds on one expression. The language has no loops, recursion or user
// functions, so evaluation always terminates, but nested predicates
// multiply and expr cannot interrupt a run, which here happens inside
// workflow code. exprbudget refuses at validation what is visibly too
// costly and meters every run: one that spends exprbudget.Defaults.Steps
// fails with an error that says so, after a fraction of a second, at the
// same step on every replay since the meter only counts.
const (
	// maxExpressionLength is the longest template or condition, in
	// characters.
	maxExpressionLength = 4096
	// maxExpressionNodes caps an expression's syntax tree.
	maxExpressionNodes = 1000
	// memoryBudget caps what one evaluation may allocate, in the expr
	// virtual machine's units (about one per element of a built list,
	// range or map).
	memoryBudget = 100_000
)

// disabledBuiltins are the builtins expressions may not call. The time
// functions would make a run depend on when it happened (and date and
// timezone read zone files), which replayed workflow code must never do;
// repeat builds strings of any size the memory budget does not see.
var disabledBuiltins = []string{"now", "date", "duration", "timezone", "repeat"}

// compileOptions are shared by templates and conditions: one environment
// type, one set of builtins, one size cap. keys, values and toPairs are
// replaced by versions that sort, because the builtins return map entries
// in Go's random iteration order and a run must render the same text every
// time it is replayed.
var compileOptions = func() []expr.Option {
	opts := []expr.Option{
		expr.Env(Env{}),
		expr.MaxNodes(maxExpressionNodes),
		expr.Function("keys", sortedKeys, new(func(any) []any)),
		expr.Function("values", sortedValues, new(func(any) []any)),
		expr.Function("toPairs", sortedPairs, new(func(any) []any)),
	}
	for _, name := range disabledBuiltins {
		opts = append(opts, expr.DisableBuiltin(name))
	}
	return opts
}()

// conditionOptions additionally make the checker demand a boolean.
var conditionOptions = append(append([]expr.Option(nil), compileOptions...), expr.AsBool())

// compile parses and type-checks one expression; condition demands a
// boolean result. Errors carry the position inside the expression.
func compile(source string, condition bool) (*vm.Program, error) {
	if strings.TrimSpace(source) == "" {
		return nil, errors.New("expression is empty")
	}
	if utf8.RuneCountInString(source) > maxExpressionLength {
		return nil, fmt.Errorf("expression is longer than %d characters", maxExpressionLength)
	}
	opts := compileOptions
	if condition {
		opts = conditionOptions
	}
	prog, err := exprbudget.Compile(source, exprbudget.Defaults, meterOf, opts...)
	if err != nil {
		return nil, errors.New(describe(err))
	}
	return prog, nil
}

// meterOf finds the meter run put in the environment.
func meterOf(env any) *exprbudget.Meter {
	if e, ok := env.(Env); ok {
		return e.meter
	}
	return nil
}

// run evaluates a compiled expression against env within the memory and
// step budgets.
func run(prog *vm.Program, env Env) (any, error) {
	// A fresh machine and meter per run: a vm.VM holds run state, and
	// reusing one would carry state between runs.
	machine := vm.VM{MemoryBudget: memoryBudget}
	env.meter = exprbudget.NewMeter(exprbudget.Defaults.Steps)
	out, err := machine.Run(prog, env)
	if err != nil {
		return nil, errors.New(describe(err))
	}
	return out, nil
}

// describe renders an expr error as one line with its position; expr's own
// rendering spans several lines with a source snippet. expr counts lines
// from 1 and columns from 0.
func describe(err error) string {
	var fe *file.Error
	if errors.As(err, &fe) && fe.Line > 0 {
		if fe.Line > 1 {
			return fmt.Sprintf("%s (line %d, column %d)", fe.Message, fe.Line, fe.Column+1)
		}
		return fmt.Sprintf("%s (column %d)", fe.Message, fe.Column+1)
	}
	return err.Error()
}

// references lists the constant names an expression reads from variables
// and outputs (variables.x, outputs["y"]), sorted and without duplicates.
// Dynamic lookups such as variables[name] cannot be checked and are left
// out. A let binding cannot shadow either name (expr refuses to redeclare
// environment fields), so every such member access reads the real map.
func references(prog *vm.Program) (vars, outs []string) {
	c := refCollector{}
	node := prog.Node()
	ast.Walk(&node, &c)
	return sortedSet(c.vars), sortedSet(c.outs)
}

type refCollector struct {
	vars, outs map[string]bool
}

// Visit implements ast.Visitor.
func (c *refCollector) Visit(node *ast.Node) {
	n, ok := (*node).(*ast.MemberNode)
	if !ok {
		return
	}
	id, ok := n.Node.(*ast.IdentifierNode)
	if !ok {
		return
	}
	prop, ok := n.Property.(*ast.StringNode)
	if !ok {
		return
	}
	switch id.Value {
	case "variables":
		c.vars = addTo(c.vars, prop.Value)
	case "outputs":
		c.outs = addTo(c.outs, prop.Value)
	}
}

func addTo(m map[string]bool, k string) map[string]bool {
	if m == nil {
		m = map[string]bool{}
	}
	m[k] = true
	return m
}

func sortedSet(m map[string]bool) []string {
	if len(m) == 0 {
		return nil
	}
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// sortedMapKeys returns the keys of a map value in a fixed order: strings
// and numbers by value, anything else by its text and then its type.
func sortedMapKeys(name string, args []any) (reflect.Value, []reflect.Value, error) {
	if len(args) != 1 {
		return reflect.Value{}, nil, fmt.Errorf("%s takes 1 argument, got %d", name, len(args))
	}
	v := reflect.ValueOf(args[0])
	if v.Kind() != reflect.Map {
		return reflect.Value{}, nil, fmt.Errorf("%s needs a map, got %T", name, args[0])
	}
	keys := v.MapKeys()
	sort.Slice(keys, func(i, j int) bool { return keyLess(keys[i], keys[j]) })
	return v, keys, nil
}

func keyLess(a, b reflect.Value) bool {
	a, b = unwrap(a), unwrap(b)
	if a.Kind() == reflect.String && b.Kind() == reflect.String {
		return a.String() < b.String()
	}
	if fa, ok := number(a); ok {
		if fb, ok := number(b); ok && fa != fb {
			return fa < fb
		}
	}
	sa, sb := fmt.Sprint(a.Interface()), fmt.Sprint(b.Interface())
	if sa != sb {
		return sa < sb
	}
	return a.Type().String() < b.Type().String()
}

func unwrap(v reflect.Value) reflect.Value {
	for v.Kind() == reflect.Interface && !v.IsNil() {
		v = v.Elem()
	}
	return v
}

func number(v reflect.Value) (float64, bool) {
	switch {
	case v.CanInt():
		return float64(v.Int()), true
	case v.CanUint():
		return float64(v.Uint()), true
	case v.CanFloat():
		return v.Float(), true
	}
	return 0, false
}

func sortedKeys(args ...any) (any, error) {
	_, keys, err := sortedMapKeys("keys", args)
	if err != nil {
		return nil, err
	}
	out := make([]any, len(keys))
	for i, k := range keys {
		out[i] = k.Interface()
	}
	return out, nil
}

func sortedValues(args ...any) (any, error) {
	m, keys, err := sortedMapKeys("values", args)
	if err != nil {
		return nil, err
	}
	out := make([]any, len(keys))
	for i, k := range keys {
		out[i] = m.MapIndex(k).Interface()
	}
	return out, nil
}

func sortedPairs(args ...any) (any, error) {
	m, keys, err := sortedMapKeys("toPairs", args)
	if err != nil {
		return nil, err
	}
	out := make([]any, len(keys))
	for i, k := range keys {
		out[i] = []any{k.Interface(), m.MapIndex(k).Interface()}
	}
	return out, nil
}
