package exprbudget

import (
	"fmt"
	"math"

	"github.com/expr-lang/expr/ast"
	"github.com/expr-lang/expr/file"
)

// checkStatic refuses what is too costly before the expression ever runs:
// a literal range longer than MaxRange, predicates nested deeper than
// MaxNesting, and nested predicates whose collections have sizes known at
// compile time (literal ranges and lists, let bindings of them, and what
// map, filter and the like make of them) multiplying to more than Steps.
// The error points at the offending range or predicate builtin.
func checkStatic(root ast.Node, limits Limits) *file.Error {
	s := &staticCheck{limits: limits, sizes: map[string]int64{}}
	s.walk(root, 0, 1)
	return s.err
}

type staticCheck struct {
	limits Limits
	// sizes holds the known sizes of let-bound names in scope; unknown is 0.
	sizes map[string]int64
	err   *file.Error
}

func (s *staticCheck) fail(n ast.Node, format string, args ...any) {
	if s.err == nil {
		s.err = &file.Error{Location: n.Location(), Message: fmt.Sprintf(format, args...)}
	}
}

// walk checks n, which runs inside depth nested predicates whose known
// sizes multiply to steps.
func (s *staticCheck) walk(n ast.Node, depth int, steps int64) {
	if n == nil || s.err != nil {
		return
	}
	switch n := n.(type) {
	case *ast.BinaryNode:
		if n.Operator == ".." {
			if size, ok := literalRange(n); ok && size > s.limits.MaxRange {
				s.fail(n, "range of %d elements is too large (at most %d)", size, s.limits.MaxRange)
			}
		}
		s.walk(n.Left, depth, steps)
		if r, ok := n.Right.(*ast.BinaryNode); n.Operator == "in" && ok && r.Operator == ".." {
			// Membership in a range compares with its bounds.
			s.walk(r.Left, depth, steps)
			s.walk(r.Right, depth, steps)
			return
		}
		s.walk(n.Right, depth, steps)
	case *ast.BuiltinNode:
		s.builtin(n, depth, steps)
	case *ast.VariableDeclaratorNode:
		s.walk(n.Value, depth, steps)
		old, had := s.sizes[n.Name]
		s.sizes[n.Name] = s.size(n.Value)
		s.walk(n.Expr, depth, steps)
		if had {
			s.sizes[n.Name] = old
		} else {
			delete(s.sizes, n.Name)
		}
	default:
		for _, c := range children(n) {
			s.walk(c, depth, steps)
		}
	}
}

// builtin checks a builtin call; a predicate's body runs once per element
// of the first argument, one level deeper.
func (s *staticCheck) builtin(n *ast.BuiltinNode, depth int, steps int64) {
	pred := -1
	for i, a := range n.Arguments {
		if _, ok := a.(*ast.PredicateNode); ok {
			pred = i
		}
	}
	if pred < 0 || len(n.Arguments) == 0 {
		for _, a := range n.Arguments {
			s.walk(a, depth, steps)
		}
		return
	}
	if depth+1 > s.limits.MaxNesting {
		s.fail(n, "%s is nested %d deep in other predicates (at most %d)", n.Name, depth+1, s.limits.MaxNesting)
		return
	}
	inner := steps
	if size := s.size(n.Arguments[0]); size > 0 {
		inner = saturatingMul(steps, size)
		if inner > s.limits.Steps {
			s.fail(n, "nested iteration takes up to %d steps (at most %d)", inner, s.limits.Steps)
			return
		}
	}
	for i, a := range n.Arguments {
		if i == pred {
			s.walk(a, depth+1, inner)
		} else {
			s.walk(a, depth, steps)
		}
	}
}

// size is the number of elements n evaluates to when that is known at
// compile time, else 0.
func (s *staticCheck) size(n ast.Node) int64 {
	switch n := n.(type) {
	case *ast.BinaryNode:
		if size, ok := literalRange(n); ok {
			return size
		}
	case *ast.IdentifierNode:
		return s.sizes[n.Value]
	case *ast.ArrayNode:
		return int64(len(n.Nodes))
	case *ast.BuiltinNode:
		// These keep at most the elements of their first argument.
		switch n.Name {
		case "map", "filter", "sortBy", "sort", "reverse", "uniq":
			if len(n.Arguments) > 0 {
				return s.size(n.Arguments[0])
			}
		}
	}
	return 0
}

// literalRange returns the size of a range whose bounds are integer
// literals.
func literalRange(n *ast.BinaryNode) (int64, bool) {
	if n.Operator != ".." {
		return 0, false
	}
	from, ok1 := literalInt(n.Left)
	to, ok2 := literalInt(n.Right)
	if !ok1 || !ok2 {
		return 0, false
	}
	if to < from {
		return 0, true
	}
	// The difference of two int64 values fits a uint64.
	if d := uint64(to) - uint64(from); d < math.MaxInt64 {
		return int64(d) + 1, true
	}
	return math.MaxInt64, true
}

func literalInt(n ast.Node) (int64, bool) {
	switch n := n.(type) {
	case *ast.IntegerNode:
		return int64(n.Value), true
	case *ast.UnaryNode:
		if v, ok := literalInt(n.Node); ok {
			switch n.Operator {
			case "-":
				return -v, true
			case "+":
				return v, true
			}
		}
	}
	return 0, false
}

func saturatingMul(a, b int64) int64 {
	if a != 0 && b > math.MaxInt64/a {
		return math.MaxInt64
	}
	return a * b
}

// children lists the direct children of n in evaluation order.
func children(n ast.Node) []ast.Node {
	switch n := n.(type) {
	case *ast.UnaryNode:
		return []ast.Node{n.Node}
	case *ast.BinaryNode:
		return []ast.Node{n.Left, n.Right}
	case *ast.ChainNode:
		return []ast.Node{n.Node}
	case *ast.MemberNode:
		return []ast.Node{n.Node, n.Property}
	case *ast.SliceNode:
		return []ast.Node{n.Node, n.From, n.To}
	case *ast.CallNode:
		return append([]ast.Node{n.Callee}, n.Arguments...)
	case *ast.BuiltinNode:
		return n.Arguments
	case *ast.PredicateNode:
		return []ast.Node{n.Node}
	case *ast.VariableDeclaratorNode:
		return []ast.Node{n.Value, n.Expr}
	case *ast.SequenceNode:
		return n.Nodes
	case *ast.ConditionalNode:
		return []ast.Node{n.Cond, n.Exp1, n.Exp2}
	case *ast.ArrayNode:
		return n.Nodes
	case *ast.MapNode:
		out := make([]ast.Node, len(n.Pairs))
		copy(out, n.Pairs)
		return out
	case *ast.PairNode:
		return []ast.Node{n.Key, n.Value}
	}
	return nil
}
