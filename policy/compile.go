package policy

import (
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/expr-lang/expr"
	"github.com/expr-lang/expr/file"
	"github.com/expr-lang/expr/vm"

	"github.com/vigil-soc/vigil/internal/exprbudget"
)

// Bounds on a condition. The language has no loops, recursion or user
// functions, only builtins that walk a finite value, but walks nested in
// one another multiply, and expr offers no way to interrupt a run. So
// Compile refuses what is visibly too costly (see exprbudget.Defaults:
// literal ranges over 10,000 elements, predicates nested more than 4 deep,
// nested walks over known sizes of more than the step budget), and every
// run is metered: one that spends exprbudget.Defaults.Steps stops with an
// error that says so, after a fraction of a second, and the rule fails
// closed like any rule that cannot be evaluated.
const (
	// MaxConditionLength is the longest condition accepted, in characters.
	MaxConditionLength = 4096
	// maxNodes caps the condition's syntax tree; a condition of
	// MaxConditionLength characters rarely needs more than a few hundred.
	maxNodes = 1000
	// memoryBudget caps what one evaluation may allocate, in the expr
	// virtual machine's units (roughly one per element of a built array,
	// range or map); going over it is a run-time error.
	memoryBudget = 100_000
)

// disabledBuiltins are the expr builtins conditions may not call. The time
// functions would make a decision depend on when it was taken (and
// timezone/date read zone files from disk), which makes decisions
// impossible to replay from the recorded environment; repeat and the
// JSON/base64 codecs only manufacture large values. Everything useful for
// matching stays: len, lower, upper, trim, split, hasPrefix/hasSuffix, the
// predicates any/all/none/one/filter/map/count, keys/values and the
// operators in, contains, matches, startsWith and endsWith.
var disabledBuiltins = []string{
	"now", "date", "duration", "timezone",
	"repeat", "toJSON", "fromJSON", "toBase64", "fromBase64",
}

// compileOptions are shared by every compilation: the Env type for type
// checking, a boolean result and the bounds above. No custom functions are
// registered, so a condition cannot reach I/O or any Go code beyond the
// remaining builtins.
var compileOptions = func() []expr.Option {
	opts := []expr.Option{expr.Env(Env{}), expr.AsBool(), expr.MaxNodes(maxNodes)}
	for _, name := range disabledBuiltins {
		opts = append(opts, expr.DisableBuiltin(name))
	}
	return opts
}()

// Program is a compiled condition, safe for concurrent use.
type Program struct {
	source string
	prog   *vm.Program
}

// Source returns the condition text the program was compiled from.
func (p *Program) Source() string { return p.source }

// Match evaluates the condition against env. An error means the condition
// could not be evaluated (for example it compared a parameter of the wrong
// type, or exceeded the memory budget); it is never a match.
func (p *Program) Match(env Env) (bool, error) {
	// A fresh machine per run: a vm.VM holds run state and is not safe for
	// concurrent use, and a zero one costs a few small allocations.
	machine := vm.VM{MemoryBudget: memoryBudget}
	env.meter = exprbudget.NewMeter(exprbudget.Defaults.Steps)
	out, err := machine.Run(p.prog, env)
	if err != nil {
		// expr's own rendering spans several lines with a source snippet;
		// the position alone reads better in a decision's reason.
		var fe *file.Error
		if errors.As(err, &fe) && fe.Line > 0 {
			return false, fmt.Errorf("evaluate condition: line %d, column %d: %s", fe.Line, fe.Column+1, fe.Message)
		}
		return false, fmt.Errorf("evaluate condition: %w", err)
	}
	b, ok := out.(bool)
	if !ok {
		// AsBool makes the checker guarantee a bool; this guards nil from a
		// condition typed as "any".
		return false, fmt.Errorf("evaluate condition: result is %T, not a boolean", out)
	}
	return b, nil
}

// CompileError explains why a condition does not compile and where: Line
// and Column are 1-based, Column counting characters. Errors about the
// condition as a whole (such as a non-boolean result) point at its start.
type CompileError struct {
	Line    int
	Column  int
	Message string
}

// Error renders the position the way rule authors read it.
func (e *CompileError) Error() string {
	return fmt.Sprintf("line %d, column %d: %s", e.Line, e.Column, e.Message)
}

// Compile parses and type-checks a condition against Env. Every failure is
// a *CompileError.
func Compile(condition string) (*Program, error) {
	if strings.TrimSpace(condition) == "" {
		return nil, &CompileError{Line: 1, Column: 1, Message: "condition is empty"}
	}
	if utf8.RuneCountInString(condition) > MaxConditionLength {
		line, col := positionOf(condition, MaxConditionLength)
		return nil, &CompileError{Line: line, Column: col,
			Message: fmt.Sprintf("condition is longer than %d characters", MaxConditionLength)}
	}
	prog, err := exprbudget.Compile(condition, exprbudget.Defaults, meterOf, compileOptions...)
	if err != nil {
		return nil, compileError(err)
	}
	return &Program{source: condition, prog: prog}, nil
}

// meterOf finds the meter Match put in the environment.
func meterOf(env any) *exprbudget.Meter {
	if e, ok := env.(Env); ok {
		return e.meter
	}
	return nil
}

// compileError converts expr's error. expr reports a 1-based line and a
// 0-based column, both counted in characters.
func compileError(err error) *CompileError {
	var fe *file.Error
	if errors.As(err, &fe) && fe.Line > 0 {
		return &CompileError{Line: fe.Line, Column: fe.Column + 1, Message: fe.Message}
	}
	return &CompileError{Line: 1, Column: 1, Message: err.Error()}
}

// positionOf returns the 1-based line and column of the character at
// 0-based character index idx.
func positionOf(s string, idx int) (line, col int) {
	line, col = 1, 1
	i := 0
	for _, r := range s {
		if i == idx {
			break
		}
		if r == '\n' {
			line, col = line+1, 1
		} else {
			col++
		}
		i++
	}
	return line, col
}
