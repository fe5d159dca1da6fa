package exprbudget

import (
	"errors"
	"reflect"

	"github.com/expr-lang/expr"
	"github.com/expr-lang/expr/ast"
	"github.com/expr-lang/expr/builtin"
	"github.com/expr-lang/expr/checker"
	"github.com/expr-lang/expr/compiler"
	"github.com/expr-lang/expr/conf"
	"github.com/expr-lang/expr/file"
	"github.com/expr-lang/expr/optimizer"
	"github.com/expr-lang/expr/vm"
)

// Limits are the bounds Compile enforces.
type Limits struct {
	// Steps is the budget of one run, which Compile also uses as the
	// largest statically known number of nested iteration steps it
	// accepts. Every predicate step costs one; see Meter.chargeSize for
	// values scanned by operators and builtins.
	Steps int64
	// MaxRange is the largest literal range (1..n) accepted, other than
	// the right side of "in", which is compared rather than built.
	MaxRange int64
	// MaxNesting is how deeply predicate builtins may nest in one another.
	MaxNesting int
}

// Defaults suit policy conditions and playbook expressions alike. Spending
// the whole budget took 20 to 82 ms on one core of a busy 2-core machine
// for the slowest kinds of step measured (nested walks over ranges, list
// membership, string concatenation, 400-node predicate bodies, patterns
// compiled at run time), so a runaway run stops well within a second;
// realistic rules and conditions use a few dozen steps.
var Defaults = Limits{Steps: 1_000_000, MaxRange: 10_000, MaxNesting: 4}

// Names of the metering functions the rewrite inserts. Expressions cannot
// call them: they are registered only after type checking, and "$" cannot
// start a name in the language except for $env.
const (
	stepFunc   = "$budget_step"
	chargeFunc = "$budget_charge"
)

// MeterOf finds the meter in the environment a run was given.
type MeterOf func(env any) *Meter

// Compile parses, type-checks and compiles source with opts, as
// expr.Compile does, and in between refuses what exceeds limits statically
// and inserts the metering calls. meterOf must find the run's meter in the
// environment passed to vm.Run; a run without one fails. A static refusal
// is a *file.Error with the position of the offending node, like expr's
// own compile errors.
func Compile(source string, limits Limits, meterOf MeterOf, opts ...expr.Option) (*vm.Program, error) {
	config := conf.CreateNew()
	for _, op := range opts {
		op(config)
	}
	for name := range config.Disabled {
		delete(config.Builtins, name)
	}
	config.Check()

	tree, err := checker.ParseCheck(source, config)
	if err != nil {
		return nil, err
	}
	if ferr := checkStatic(tree.Node, limits); ferr != nil {
		return nil, ferr.Bind(tree.Source)
	}
	meter(&tree.Node)
	config.Functions[stepFunc] = &builtin.Function{Name: stepFunc, Func: stepper(meterOf)}
	config.Functions[chargeFunc] = &builtin.Function{Name: chargeFunc, Func: charger(meterOf, (*Meter).chargeSize)}
	config.Functions[subjectFunc] = &builtin.Function{Name: subjectFunc, Func: subjectCharger(meterOf)}
	config.Functions[matchesFunc] = &builtin.Function{Name: matchesFunc, Func: matcher(meterOf)}

	if config.Optimize {
		if err := optimizer.Optimize(&tree.Node, config); err != nil {
			var fe *file.Error
			if errors.As(err, &fe) {
				return nil, fe.Bind(tree.Source)
			}
			return nil, err
		}
	}
	return compiler.Compile(tree, config)
}

// stepper charges a predicate step and passes its second argument, the
// step's value, through. The third is the step's weight: the number of
// nodes in the predicate's body, so that a body of hundreds of operations
// costs as much as hundreds of small steps.
func stepper(meterOf MeterOf) func(args ...any) (any, error) {
	return func(args ...any) (any, error) {
		m := meterOf(args[0])
		if m == nil {
			return nil, errNoMeter
		}
		if err := m.charge(int64(args[2].(int))); err != nil {
			return nil, err
		}
		return args[1], nil
	}
}

// charger charges for its second argument with cost and passes it
// through.
func charger(meterOf MeterOf, cost func(*Meter, any) error) func(args ...any) (any, error) {
	return func(args ...any) (any, error) {
		m := meterOf(args[0])
		if m == nil {
			return nil, errNoMeter
		}
		if err := cost(m, args[1]); err != nil {
			return nil, err
		}
		return args[1], nil
	}
}

// passThrough is the Go type of both metering functions.
var passThrough = reflect.TypeOf(func(...any) (any, error) { return nil, nil })

// wrap replaces *node with name($env, *node, extra...), keeping the node's
// type so that the compiler picks the same instructions around it.
func wrap(node *ast.Node, name string, extra ...ast.Node) {
	inner := *node
	callee := &ast.IdentifierNode{Value: name}
	callee.SetType(passThrough)
	env := &ast.IdentifierNode{Value: "$env"}
	call := &ast.CallNode{Callee: callee, Arguments: append([]ast.Node{env, inner}, extra...)}
	call.SetNature(*inner.Nature())
	for _, n := range append([]ast.Node{callee, env, call}, extra...) {
		n.SetLocation(inner.Location())
	}
	*node = call
}

// weight counts the nodes of a predicate body that run on every step:
// all but those inside nested predicates, which are charged by their own
// steps.
func weight(n ast.Node) int {
	if n == nil {
		return 0
	}
	if _, ok := n.(*ast.PredicateNode); ok {
		return 1
	}
	w := 1
	for _, c := range children(n) {
		w += weight(c)
	}
	return w
}

// scanningOperators are the binary operators whose cost grows with the
// size of a non-numeric operand: membership, equality of lists and maps,
// concatenation and the string matchers.
var scanningOperators = map[string]bool{
	"in": true, "==": true, "!=": true, "+": true, "<": true, ">": true, "<=": true, ">=": true,
	"contains": true, "startsWith": true, "endsWith": true, "matches": true,
}

// constantTimeBuiltins cost the same whatever the size of their operands.
var constantTimeBuiltins = map[string]bool{"len": true, "type": true, "get": true, "first": true, "last": true}

// metering is the ast.Visitor that inserts the metering calls. Walk visits
// children before parents, so an inserted call is never visited itself.
type metering struct{}

// meter rewrites the tree rooted at node.
func meter(node *ast.Node) { ast.Walk(node, metering{}) }

// Visit implements ast.Visitor.
func (metering) Visit(node *ast.Node) {
	switch n := (*node).(type) {
	case *ast.PredicateNode:
		w := &ast.IntegerNode{Value: weight(n.Node)}
		w.SetType(reflect.TypeOf(0))
		wrap(&n.Node, stepFunc, w)
	case *ast.BinaryNode:
		if !scanningOperators[n.Operator] {
			return
		}
		if n.Operator == "matches" {
			meterMatches(node, n)
			return
		}
		chargeOperand(&n.Left, chargeFunc)
		switch r, isRange := n.Right.(*ast.BinaryNode); {
		case isRange && r.Operator == "..":
			// "x in a..b" with literal bounds is compared, not built; any
			// other range is built within the memory budget.
		default:
			chargeOperand(&n.Right, chargeFunc)
		}
	case *ast.BuiltinNode:
		if constantTimeBuiltins[n.Name] {
			return
		}
		for i := range n.Arguments {
			// A predicate builtin's walk is charged step by step instead.
			if _, ok := n.Arguments[len(n.Arguments)-1].(*ast.PredicateNode); ok && i == 0 {
				continue
			}
			chargeOperand(&n.Arguments[i], chargeFunc)
		}
	case *ast.CallNode:
		for i := range n.Arguments {
			chargeOperand(&n.Arguments[i], chargeFunc)
		}
	}
}

// chargeOperand wraps an operand in the charge fn unless it is a number, a
// boolean, a literal or a predicate (whose steps are charged anyway).
func chargeOperand(node *ast.Node, fn string) {
	switch (*node).(type) {
	case *ast.PredicateNode, *ast.IntegerNode, *ast.FloatNode, *ast.BoolNode, *ast.NilNode,
		*ast.StringNode, *ast.ConstantNode:
		return
	}
	if !composite((*node).Type()) {
		return
	}
	wrap(node, fn)
}
