package exprbudget

import (
	"fmt"
	"reflect"
	"regexp"
	"regexp/syntax"

	"github.com/expr-lang/expr/ast"
)

// Matching a regular expression costs time in proportion to the input's
// length times the size of the compiled pattern in the worst case: about
// 4 to 12 ns per byte and instruction, measured with patterns such as
// (?i)evil|bad|worse and (\pL{1,100}x)+. One step of the meter is charged
// for every matchUnit of that product.
const matchUnit = 8

// Names of the functions that meter "matches".
const (
	subjectFunc = "$budget_subject"
	matchesFunc = "$budget_matches"
)

// meterMatches rewrites "s matches p". With a literal pattern, which the
// compiler builds once, s is charged for its length times the pattern's
// size before the match. A pattern known only at run time is compiled and
// matched by matchesFunc, which charges the compilation first.
func meterMatches(node *ast.Node, n *ast.BinaryNode) {
	if lit, ok := n.Right.(*ast.StringNode); ok {
		size := &ast.IntegerNode{Value: patternSize(lit.Value)}
		size.SetType(reflect.TypeOf(0))
		wrap(&n.Left, subjectFunc, size)
		return
	}
	callee := &ast.IdentifierNode{Value: matchesFunc}
	callee.SetType(passThrough)
	env := &ast.IdentifierNode{Value: "$env"}
	call := &ast.CallNode{Callee: callee, Arguments: []ast.Node{env, n.Left, n.Right}}
	call.SetNature(*n.Nature())
	for _, c := range []ast.Node{callee, env, call} {
		c.SetLocation(n.Location())
	}
	*node = call
}

// patternSize is the number of instructions pattern compiles to, or 1 if
// it does not compile (the caller reports that error).
func patternSize(pattern string) int {
	re, err := syntax.Parse(pattern, syntax.Perl)
	if err != nil {
		return 1
	}
	prog, err := syntax.Compile(re.Simplify())
	if err != nil {
		return 1
	}
	return max(len(prog.Inst), 1)
}

func (m *Meter) chargeMatch(subject any, size int) error {
	var n int
	switch s := subject.(type) {
	case string:
		n = len(s)
	case []byte:
		n = len(s)
	}
	return m.charge(1 + int64(n)*int64(size)/matchUnit)
}

// subjectCharger charges for matching its second argument against a
// pattern of the size given as the third, and passes the second through.
func subjectCharger(meterOf MeterOf) func(args ...any) (any, error) {
	return func(args ...any) (any, error) {
		m := meterOf(args[0])
		if m == nil {
			return nil, errNoMeter
		}
		if err := m.chargeMatch(args[1], args[2].(int)); err != nil {
			return nil, err
		}
		return args[1], nil
	}
}

// matcher does what expr's "matches" does with a pattern known only at
// run time (nil on either side is false), charging for compiling the
// pattern and then for the match.
func matcher(meterOf MeterOf) func(args ...any) (any, error) {
	return func(args ...any) (any, error) {
		m := meterOf(args[0])
		if m == nil {
			return nil, errNoMeter
		}
		subject, pattern := args[1], args[2]
		if isNil(subject) || isNil(pattern) {
			return false, nil
		}
		p, ok := pattern.(string)
		if !ok {
			return nil, fmt.Errorf("cannot match against %T, need a string pattern", pattern)
		}
		if err := m.chargePattern(p); err != nil {
			return nil, err
		}
		re, err := regexp.Compile(p)
		if err != nil {
			return nil, err
		}
		if err := m.chargeMatch(subject, patternSize(p)); err != nil {
			return nil, err
		}
		switch s := subject.(type) {
		case string:
			return re.MatchString(s), nil
		case []byte:
			return re.Match(s), nil
		}
		return nil, fmt.Errorf("cannot match %T, need a string", subject)
	}
}

func isNil(v any) bool {
	if v == nil {
		return true
	}
	r := reflect.ValueOf(v)
	switch r.Kind() {
	case reflect.Pointer, reflect.Map, reflect.Slice, reflect.Interface, reflect.Func, reflect.Chan:
		return r.IsNil()
	}
	return false
}
