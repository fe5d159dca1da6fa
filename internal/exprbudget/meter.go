// Package exprbudget bounds the work one expr-language evaluation may do.
//
// expr offers a node cap and a memory budget but no step limit and no way
// to interrupt a run, and its predicate builtins (all, any, map, filter,
// ...) nest: three nested walks over a 2000-element range are 8·10⁹ steps.
// Compile therefore refuses, before anything is stored, what is visibly too
// costly (large literal ranges, deep or large nested iteration), and
// rewrites the syntax tree so that every predicate step and the operands of
// operators and builtins whose cost grows with their input are charged to a
// Meter. A run that spends its budget stops with ErrBudgetExceeded. The
// count is pure arithmetic on the values seen, never a clock, so the same
// expression on the same input is cut off at the same step every time,
// which workflow code that is replayed relies on.
package exprbudget

import (
	"errors"
	"fmt"
	"reflect"
)

// ErrBudgetExceeded is wrapped by the error of a run that spent its step
// budget.
var ErrBudgetExceeded = errors.New("evaluation exceeded its step budget")

// errNoMeter fails a run whose environment carries no meter: counting
// nothing would mean no bound at all.
var errNoMeter = errors.New("evaluation has no step meter")

// stringUnit is how many bytes of a string cost one step. Scanning,
// comparing or copying bytes is far cheaper than a predicate step.
const stringUnit = 16

// patternByteCost is what one byte of a regular expression compiled at
// run time costs. Compiling is far dearer than scanning: a 15-byte pattern
// such as (\pL{1,1000}x)+ takes about 4 ms, some 270 µs per byte, while a
// step of the meter takes well under 0.1 µs, and the pattern is compiled
// twice (once to measure its size).
const patternByteCost = 8192

// Meter counts the steps of one evaluation. It is not safe for concurrent
// use; every run gets its own.
type Meter struct {
	used, limit int64
}

// NewMeter returns a meter that allows limit steps.
func NewMeter(limit int64) *Meter { return &Meter{limit: limit} }

// Used reports the steps charged so far, including the one that went over
// the budget.
func (m *Meter) Used() int64 { return m.used }

func (m *Meter) charge(n int64) error {
	m.used += n
	if m.used > m.limit {
		return fmt.Errorf("%w of %d steps", ErrBudgetExceeded, m.limit)
	}
	return nil
}

// chargeSize charges for a value an operator or builtin is about to scan,
// compare or copy: one step per element, map entry, struct field or
// pointer, and one per stringUnit bytes of every string. The walk charges
// before it descends, so a value that is larger than the remaining budget
// (or shares parts so that its walk would be exponential) stops the walk
// as soon as the budget is gone.
func (m *Meter) chargeSize(v any) error {
	stack := []reflect.Value{reflect.ValueOf(v)}
	for len(stack) > 0 {
		cur := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		var cost int64 = 1
		switch cur.Kind() {
		case reflect.Invalid:
			continue
		case reflect.Interface:
			// An interface cannot refer to itself without a pointer, map or
			// slice in between, each of which costs a step, so it is free.
			if !cur.IsNil() {
				stack = append(stack, cur.Elem())
			}
			continue
		case reflect.Pointer:
			if !cur.IsNil() {
				stack = append(stack, cur.Elem())
			}
		case reflect.String:
			cost += int64(cur.Len() / stringUnit)
		case reflect.Slice, reflect.Array:
			cost += int64(cur.Len())
			if err := m.charge(cost); err != nil {
				return err
			}
			if composite(cur.Type().Elem()) {
				for i := range cur.Len() {
					stack = append(stack, cur.Index(i))
				}
			}
			continue
		case reflect.Map:
			cost += int64(cur.Len())
			if err := m.charge(cost); err != nil {
				return err
			}
			composite := composite(cur.Type().Key()) || composite(cur.Type().Elem())
			for it := cur.MapRange(); composite && it.Next(); {
				stack = append(stack, it.Key(), it.Value())
			}
			continue
		case reflect.Struct:
			for i := range cur.NumField() {
				stack = append(stack, cur.Field(i))
			}
		}
		if err := m.charge(cost); err != nil {
			return err
		}
	}
	return nil
}

// chargePattern charges for compiling a pattern at run time.
func (m *Meter) chargePattern(p string) error {
	return m.charge(1 + int64(len(p))*patternByteCost)
}

// composite reports whether values of t may cost more than one step each.
func composite(t reflect.Type) bool {
	switch t.Kind() {
	case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
		reflect.Float32, reflect.Float64, reflect.Complex64, reflect.Complex128:
		return false
	}
	return true
}
