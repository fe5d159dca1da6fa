package playbook

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// Template syntax. A string holds {{ expression }} pieces between plain
// text. An expression ends at the first "}}", so a map literal inside a
// template needs a space between its closing braces ("{a: {b: 1} }").
const (
	openDelim  = "{{"
	closeDelim = "}}"
)

// maxRenderDepth bounds how deeply Render walks nested parameter values;
// stored playbooks nest far less, so deeper values are refused rather than
// walked without limit.
const maxRenderDepth = 64

// segment is a piece of a template string: plain text or an expression.
type segment struct {
	text   string
	isExpr bool
}

// hasTemplate reports whether s holds a template at all.
func hasTemplate(s string) bool { return strings.Contains(s, openDelim) }

// splitTemplate cuts s into text and expression segments. Plain text that
// is empty is left out.
func splitTemplate(s string) ([]segment, error) {
	var out []segment
	for {
		start := strings.Index(s, openDelim)
		if start < 0 {
			if s != "" {
				out = append(out, segment{text: s})
			}
			return out, nil
		}
		if start > 0 {
			out = append(out, segment{text: s[:start]})
		}
		rest := s[start+len(openDelim):]
		end := strings.Index(rest, closeDelim)
		if end < 0 {
			return nil, errors.New("template has \"{{\" without a closing \"}}\"")
		}
		if strings.TrimSpace(rest[:end]) == "" {
			return nil, errors.New("template has an empty {{ }}")
		}
		out = append(out, segment{text: rest[:end], isExpr: true})
		s = rest[end+len(closeDelim):]
	}
}

// singleTemplate reports whether segs is one expression and nothing else
// (surrounding white space aside), which keeps the expression's type.
func singleTemplate(s string) (string, bool) {
	t := strings.TrimSpace(s)
	if !strings.HasPrefix(t, openDelim) || !strings.HasSuffix(t, closeDelim) {
		return "", false
	}
	inner := t[len(openDelim) : len(t)-len(closeDelim)]
	if strings.Contains(inner, closeDelim) {
		return "", false
	}
	return inner, true
}

// Render expands the templates in a parameter tree and returns a new tree;
// params is not changed. Nested maps and lists are walked.
//
// A string that is exactly one template, like "{{ outputs.scan.scan_id }}",
// becomes the expression's value with its type (number, boolean, list, map
// or nil). Any other string with templates becomes text: each expression's
// value is written out (nil as "", strings as they are, anything else as
// JSON) and joined with the text around it. So a raw_data field the
// incident lacks renders as "" inside text and as nil on its own; reading
// a field of a missing field is an error unless written with ?. or ??.
// Whether an empty required parameter is acceptable is the action's
// business when it runs, not Render's.
//
// Keys are visited in sorted order, so the first error reported is the
// same on every run.
func Render(params map[string]any, env Env) (map[string]any, error) {
	if params == nil {
		return nil, nil
	}
	out, err := renderMap(params, "", env, 0)
	if err != nil {
		return nil, err
	}
	return out, nil
}

// RenderText expands the templates of one string, such as an AI
// analysis question, always to text: a string that is one template becomes
// that value written out as Render writes values inside text.
func RenderText(s string, env Env) (string, error) {
	if !hasTemplate(s) {
		return s, nil
	}
	v, err := renderString(s, env)
	if err != nil {
		return "", err
	}
	return text(v), nil
}

func renderMap(m map[string]any, path string, env Env, depth int) (map[string]any, error) {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	out := make(map[string]any, len(m))
	for _, k := range keys {
		v, err := renderValue(m[k], join(path, k), env, depth+1)
		if err != nil {
			return nil, err
		}
		out[k] = v
	}
	return out, nil
}

func renderValue(v any, path string, env Env, depth int) (any, error) {
	if depth > maxRenderDepth {
		return nil, fmt.Errorf("parameter %s: nested more than %d levels deep", path, maxRenderDepth)
	}
	switch v := v.(type) {
	case string:
		if !hasTemplate(v) {
			return v, nil
		}
		out, err := renderString(v, env)
		if err != nil {
			return nil, fmt.Errorf("parameter %s: %w", path, err)
		}
		return out, nil
	case map[string]any:
		return renderMap(v, path, env, depth)
	case []any:
		out := make([]any, len(v))
		for i, item := range v {
			r, err := renderValue(item, index(path, i), env, depth+1)
			if err != nil {
				return nil, err
			}
			out[i] = r
		}
		return out, nil
	}
	return v, nil
}

// renderString expands the templates of one string.
func renderString(s string, env Env) (any, error) {
	if inner, ok := singleTemplate(s); ok {
		return evalTemplate(inner, env)
	}
	segs, err := splitTemplate(s)
	if err != nil {
		return nil, err
	}
	var b strings.Builder
	for _, seg := range segs {
		if !seg.isExpr {
			b.WriteString(seg.text)
			continue
		}
		v, err := evalTemplate(seg.text, env)
		if err != nil {
			return nil, err
		}
		b.WriteString(text(v))
	}
	return b.String(), nil
}

func evalTemplate(source string, env Env) (any, error) {
	prog, err := compile(source, false)
	if err != nil {
		return nil, fmt.Errorf("template {{%s}}: %w", source, err)
	}
	v, err := run(prog, env)
	if err != nil {
		return nil, fmt.Errorf("template {{%s}}: %w", source, err)
	}
	return v, nil
}

// text writes a value into a string: nil is empty, a string is itself and
// anything else is JSON, whose map keys are sorted and so stable. Values
// JSON cannot hold fall back to Go's formatting, which sorts map keys too.
func text(v any) string {
	switch v := v.(type) {
	case nil:
		return ""
	case string:
		return v
	case bool:
		return strconv.FormatBool(v)
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	// Parameters are text for people and tools, not HTML.
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return fmt.Sprint(v)
	}
	return strings.TrimSuffix(buf.String(), "\n")
}

// Eval evaluates a condition against env. A condition whose value is nil,
// such as a bare raw_data field the incident lacks, is false, in line with
// a missing field rendering as nothing. An error means the condition could
// not be evaluated (it does not compile, reads a field of a missing value,
// compares mismatched types or exceeds the memory budget); it is never
// false.
func Eval(condition string, env Env) (bool, error) {
	prog, err := compile(condition, true)
	if err != nil {
		return false, fmt.Errorf("condition: %w", err)
	}
	out, err := run(prog, env)
	if err != nil {
		return false, fmt.Errorf("condition: %w", err)
	}
	b, ok := out.(bool)
	if !ok {
		// AsBool makes the checker demand a boolean and the machine turn
		// nil into false; this guards anything else a value typed "any"
		// could hold.
		return false, fmt.Errorf("condition: result is %s, not a boolean", describeType(out))
	}
	return b, nil
}

func describeType(v any) string {
	if v == nil {
		return "nil"
	}
	return fmt.Sprintf("%T", v)
}
