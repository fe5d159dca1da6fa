package settings

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"sort"
	"strings"
	"unicode/utf8"
)

// ValidationError reports every invalid field of a submitted setting,
// mapping the JSON field name to what is wrong with it. A body that is not
// a JSON object is reported under the name "body".
type ValidationError struct {
	Fields map[string]string
}

// Error lists the problems sorted by field name.
func (e *ValidationError) Error() string {
	names := make([]string, 0, len(e.Fields))
	for name := range e.Fields {
		names = append(names, name)
	}
	sort.Strings(names)
	parts := make([]string, len(names))
	for i, name := range names {
		parts[i] = name + ": " + e.Fields[name]
	}
	return "invalid setting: " + strings.Join(parts, "; ")
}

// fieldErrors collects one message per field; the first problem found for
// a field is kept because later checks on a value that failed to decode
// would only describe the default it fell back to.
type fieldErrors map[string]string

func (e fieldErrors) add(field, msg string) {
	if _, ok := e[field]; !ok {
		e[field] = msg
	}
}

func (e fieldErrors) intRange(field string, v, lo, hi int) {
	if v < lo || v > hi {
		e.add(field, fmt.Sprintf("must be between %d and %d", lo, hi))
	}
}

// length checks a length in characters; a required value (lo > 0) must
// also be more than whitespace.
func (e fieldErrors) length(field, v string, lo, hi int) {
	n := utf8.RuneCountInString(v)
	switch {
	case lo > 0 && (n < lo || n > hi || strings.TrimSpace(v) == ""):
		e.add(field, fmt.Sprintf("must be %d to %d characters and not blank", lo, hi))
	case n > hi:
		e.add(field, fmt.Sprintf("must be at most %d characters", hi))
	}
}

func (e fieldErrors) err() error {
	if len(e) == 0 {
		return nil
	}
	return &ValidationError{Fields: e}
}

// parseObject splits a request body into its members.
func parseObject(body []byte) (map[string]json.RawMessage, error) {
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(body, &obj); err != nil || obj == nil {
		return nil, &ValidationError{Fields: map[string]string{"body": "must be a JSON object"}}
	}
	return obj, nil
}

// storedObject turns a stored value back into members so stored and
// submitted settings decode the same way.
func storedObject(v map[string]any) (map[string]json.RawMessage, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(b, &obj); err != nil {
		return nil, err
	}
	return obj, nil
}

// overlay decodes each member of obj into the field of dst (a pointer to a
// settings struct) with the same JSON name, leaving the others at their
// current value. A member with no such field is reported when strict and
// skipped otherwise, so a row written by a newer version still loads.
func overlay(dst shape, obj map[string]json.RawMessage, errs fieldErrors, strict bool) {
	v := reflect.ValueOf(dst).Elem()
	fields := jsonFields(v.Type())
	for name, raw := range obj {
		i, ok := fields[name]
		if !ok {
			if strict {
				errs.add(name, "unknown field")
			}
			continue
		}
		f := v.Field(i)
		// Unmarshalling null into a Go value is a silent no-op, which
		// would quietly keep the default.
		if isNull(raw) {
			errs.add(name, typeMessage(f.Kind()))
			continue
		}
		target := reflect.New(f.Type())
		if err := json.Unmarshal(raw, target.Interface()); err != nil {
			errs.add(name, typeMessage(f.Kind()))
			continue
		}
		f.Set(target.Elem())
	}
}

func isNull(raw json.RawMessage) bool {
	return bytes.Equal(bytes.TrimSpace(raw), []byte("null"))
}

// jsonFields maps JSON names to struct field indexes, skipping fields
// excluded from JSON.
func jsonFields(t reflect.Type) map[string]int {
	out := make(map[string]int, t.NumField())
	for i := range t.NumField() {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if !f.IsExported() || name == "-" || name == "" {
			continue
		}
		out[name] = i
	}
	return out
}

func typeMessage(k reflect.Kind) string {
	switch k {
	case reflect.String:
		return "must be a string"
	case reflect.Bool:
		return "must be true or false"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return "must be an integer"
	}
	return "has the wrong type"
}

// toMap renders a settings struct as the JSON object it encodes to.
func toMap(v shape) (map[string]any, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	var out map[string]any
	if err := json.Unmarshal(b, &out); err != nil {
		return nil, err
	}
	return out, nil
}
