package intake

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

// MappingSpec holds a custom source's expressions, in the expression
// language of playbook conditions, over the delivered JSON object named
// payload. Title is required; the others may be left empty: severity then
// reads as medium (after the severity_mapping), the alert has no id (so no
// deduplication), no description, and never resolves.
type MappingSpec struct {
	Title       string `json:"title"`
	Severity    string `json:"severity,omitempty"`
	AlertID     string `json:"alert_id,omitempty"`
	Description string `json:"description,omitempty"`
	// Resolved, when true for a delivery, makes it resolve the incident
	// of its alert id instead of creating one.
	Resolved string `json:"resolved,omitempty"`
}

// MappingFieldError is a mapping expression that does not compile, with
// its position (line from 1, column from 1) when the language gives one.
type MappingFieldError struct {
	Field   string
	Message string
	Line    int
	Column  int
}

func (e *MappingFieldError) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("%s (line %d, column %d)", e.Message, e.Line, e.Column)
	}
	return e.Message
}

// Mapping is a compiled MappingSpec, safe for concurrent use.
type Mapping struct {
	spec  MappingSpec
	progs map[string]*vm.Program
}

// Spec returns the expressions the mapping was compiled from.
func (m *Mapping) Spec() MappingSpec { return m.spec }

// Bounds on one mapping expression, as for playbook expressions: the
// language always terminates, exprbudget meters every run.
const (
	maxMappingExpression = 2048
	maxMappingNodes      = 500
	mappingMemoryBudget  = 100_000
)

// mappingEnv is what a mapping expression reads.
type mappingEnv struct {
	Payload map[string]any `expr:"payload"`
	meter   *exprbudget.Meter
}

func mappingMeter(env any) *exprbudget.Meter {
	if e, ok := env.(mappingEnv); ok {
		return e.meter
	}
	return nil
}

// mappingOptions: time builtins would make the same payload map differently
// from one moment to the next; repeat builds strings the budget does not see.
var mappingOptions = []expr.Option{
	expr.Env(mappingEnv{}), expr.MaxNodes(maxMappingNodes),
	expr.DisableBuiltin("now"), expr.DisableBuiltin("date"), expr.DisableBuiltin("duration"),
	expr.DisableBuiltin("timezone"), expr.DisableBuiltin("repeat"),
}

// CompileMapping compiles every expression of spec. It returns every
// field's problem at once, so an editor can show them all.
func CompileMapping(spec MappingSpec) (*Mapping, []*MappingFieldError) {
	m := &Mapping{spec: spec, progs: map[string]*vm.Program{}}
	var problems []*MappingFieldError
	for _, f := range mappingFields(spec) {
		if strings.TrimSpace(f.source) == "" {
			if f.name == "title" {
				problems = append(problems, &MappingFieldError{Field: f.name, Message: "is required"})
			}
			continue
		}
		if utf8.RuneCountInString(f.source) > maxMappingExpression {
			problems = append(problems, &MappingFieldError{Field: f.name,
				Message: fmt.Sprintf("is longer than %d characters", maxMappingExpression)})
			continue
		}
		opts := mappingOptions
		if f.name == "resolved" {
			opts = append(append([]expr.Option(nil), mappingOptions...), expr.AsBool())
		}
		prog, err := exprbudget.Compile(f.source, exprbudget.Defaults, mappingMeter, opts...)
		if err != nil {
			problems = append(problems, fieldError(f.name, err))
			continue
		}
		m.progs[f.name] = prog
	}
	if len(problems) > 0 {
		return nil, problems
	}
	return m, nil
}

type mappingField struct{ name, source string }

func mappingFields(s MappingSpec) []mappingField {
	return []mappingField{{"title", s.Title}, {"severity", s.Severity}, {"alert_id", s.AlertID},
		{"description", s.Description}, {"resolved", s.Resolved}}
}

// fieldError keeps expr's position; expr counts columns from 0. An error
// about the whole expression (its result type) points at its start.
func fieldError(field string, err error) *MappingFieldError {
	var fe *file.Error
	if errors.As(err, &fe) && fe.Line > 0 {
		return &MappingFieldError{Field: field, Message: fe.Message, Line: fe.Line, Column: fe.Column + 1}
	}
	msg := err.Error()
	if errors.As(err, &fe) {
		msg = fe.Message
	}
	return &MappingFieldError{Field: field, Message: msg, Line: 1, Column: 1}
}

// eval runs the named expression on payload; an absent one gives nil.
func (m *Mapping) eval(name string, payload map[string]any) (any, error) {
	prog := m.progs[name]
	if prog == nil {
		return nil, nil
	}
	machine := vm.VM{MemoryBudget: mappingMemoryBudget}
	out, err := machine.Run(prog, mappingEnv{Payload: payload, meter: exprbudget.NewMeter(exprbudget.Defaults.Steps)})
	if err != nil {
		var fe *file.Error
		if errors.As(err, &fe) {
			return nil, errors.New(fe.Message)
		}
		return nil, err
	}
	return out, nil
}

const customExpected = "custom: any JSON object; the source's mapping reads it as payload"

// parseCustom maps one delivered object through the source's expressions.
// An expression that fails on this payload refuses the delivery with the
// field's name and the language's message, so the sender (or the preview)
// shows what to fix.
func parseCustom(body []byte, d Delivery) ([]Alert, error) {
	expected := []string{customExpected}
	payload, err := decodeObject(body, expected)
	if err != nil {
		return nil, err
	}
	vals := map[string]any{}
	for _, f := range mappingFields(d.Mapping.spec) {
		v, err := d.Mapping.eval(f.name, payload)
		if err != nil {
			return nil, &FormatError{Message: "mapping " + f.name + ": " + err.Error(), Expected: expected}
		}
		vals[f.name] = v
	}
	a := Alert{Format: SourceCustom}
	a.Title = valueText(vals["title"])
	if cleanLine(a.Title) == "" {
		a.Title = "Alert from " + d.Source
	}
	a.AlertID = valueText(vals["alert_id"])
	a.Description = valueText(vals["description"])
	a.IncidentType = classify(a.Title, genericTypeRules)
	a.Resolved, _ = vals["resolved"].(bool)
	a.EndNotified = d.Mapping.progs["resolved"] != nil
	var sev any
	switch v := vals["severity"].(type) {
	case string, float64:
		sev = v
	case int:
		sev = float64(v)
	}
	return []Alert{finish(a, sev, payload, d.Source, d.SeverityMapping)}, nil
}

// valueText renders an expression's result as text: strings as they are,
// numbers without exponent, nothing else.
func valueText(v any) string {
	switch t := v.(type) {
	case string:
		return t
	case float64:
		return formatNumber(t)
	case int:
		return formatNumber(float64(t))
	case bool:
		if t {
			return "true"
		}
		return "false"
	}
	return ""
}
