package intake

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"time"
)

// maxNesting is the deepest JSON nesting accepted. Real alerts are a handful
// of levels deep; anything far deeper is an attempt to make every later
// recursive walk of RawData (triage, indicator extraction, storage) costly.
const maxNesting = 64

// decodeObject decodes body into a JSON object. Numbers become float64, as
// they do everywhere else RawData is produced, so downstream code sees one
// shape whichever endpoint an incident came through.
func decodeObject(body []byte, expected []string) (map[string]any, error) {
	// Validating first keeps the nesting scan simple (it may assume
	// well-formed strings) and spares decoding work on garbage.
	if !json.Valid(body) {
		return nil, &FormatError{Message: "request body is not JSON", Expected: expected}
	}
	if nestingDepth(body) > maxNesting {
		return nil, &FormatError{
			Message:  fmt.Sprintf("request body nests deeper than %d levels", maxNesting),
			Expected: expected,
		}
	}
	var v any
	if err := json.Unmarshal(body, &v); err != nil {
		// Once the syntax is valid, the only thing decoding into any can
		// still trip over is a number too large for a float64, e.g. 1e400.
		return nil, &FormatError{Message: "request body holds a number out of range", Expected: expected}
	}
	m, ok := v.(map[string]any)
	if !ok {
		return nil, &FormatError{Message: "request body is not a JSON object", Expected: expected}
	}
	return m, nil
}

// nestingDepth returns the maximum depth of objects and arrays in valid
// JSON. It is a single pass over the bytes without allocation, so a body of
// a million '[' is rejected before anything is built from it.
func nestingDepth(b []byte) int {
	depth, maxDepth := 0, 0
	inString, escaped := false, false
	for _, c := range b {
		switch {
		case inString:
			switch {
			case escaped:
				escaped = false
			case c == '\\':
				escaped = true
			case c == '"':
				inString = false
			}
		case c == '"':
			inString = true
		case c == '{' || c == '[':
			depth++
			maxDepth = max(maxDepth, depth)
		case c == '}' || c == ']':
			depth--
		}
	}
	return maxDepth
}

// has reports whether key is present with a non-null value. Senders often
// serialise absent optional fields as null, so null counts as absent.
func has(m map[string]any, key string) bool {
	v, ok := m[key]
	return ok && v != nil
}

// reader reads typed fields from one JSON object and words errors with the
// format's label and the field's dotted path, e.g.
// "endpoint detection payload: event.Severity must be an integer".
type reader struct {
	label  string
	path   string // dotted prefix of m within the payload, "" at top level
	m      map[string]any
	expect []string
}

func (r reader) fail(key, problem string) error {
	return &FormatError{
		Message:  fmt.Sprintf("%s: %s%s %s", r.label, r.path, key, problem),
		Expected: r.expect,
	}
}

func (r reader) get(key string) (any, bool) {
	v, ok := r.m[key]
	return v, ok && v != nil
}

// object returns a reader for the nested object at key. An absent optional
// object reads as empty, so callers need no nil checks.
func (r reader) object(key string, required bool) (reader, error) {
	sub := reader{label: r.label, path: r.path + key + ".", expect: r.expect}
	v, ok := r.get(key)
	if !ok {
		if required {
			return sub, r.fail(key, "is required")
		}
		return sub, nil
	}
	m, isMap := v.(map[string]any)
	if !isMap {
		return sub, r.fail(key, "must be an object")
	}
	sub.m = m
	return sub, nil
}

// str returns the string at key; a present value of another type is an
// error because the field is part of the format's documented shape.
func (r reader) str(key string, required bool) (string, error) {
	v, ok := r.get(key)
	if !ok {
		if required {
			return "", r.fail(key, "is required")
		}
		return "", nil
	}
	s, isStr := v.(string)
	if !isStr {
		return "", r.fail(key, "must be a string")
	}
	return s, nil
}

// nonEmpty is str for fields whose emptiness would leave nothing to show;
// text that is blank once cleaned for display counts as empty.
func (r reader) nonEmpty(key string) (string, error) {
	s, err := r.str(key, true)
	if err == nil && cleanLine(s) == "" {
		err = r.fail(key, "must be a non-empty string")
	}
	return s, err
}

// scalar returns the string or number at key, for fields such as severity
// and ids that vendors send either way.
func (r reader) scalar(key string, required bool) (any, error) {
	v, ok := r.get(key)
	if !ok {
		if required {
			return nil, r.fail(key, "is required")
		}
		return nil, nil
	}
	switch v.(type) {
	case string, float64:
		return v, nil
	}
	return nil, r.fail(key, "must be a string or a number")
}

// number returns the required number at key.
func (r reader) number(key string) (float64, error) {
	v, ok := r.get(key)
	if !ok {
		return 0, r.fail(key, "is required")
	}
	f, isNum := v.(float64)
	if !isNum {
		return 0, r.fail(key, "must be a number")
	}
	return f, nil
}

// integer returns the required whole number at key.
func (r reader) integer(key string) (float64, error) {
	v, ok := r.get(key)
	if !ok {
		return 0, r.fail(key, "is required")
	}
	f, isNum := v.(float64)
	if !isNum || f != math.Trunc(f) {
		return 0, r.fail(key, "must be an integer")
	}
	return f, nil
}

// text returns the value at key as text when it is a string or a number and
// "" otherwise. It is for vendor fields outside the documented shape, whose
// type is not ours to enforce.
func (r reader) text(key string) string {
	switch t := r.m[key].(type) {
	case string:
		return t
	case float64:
		return formatNumber(t)
	}
	return ""
}

// formatNumber renders a JSON number without exponent or trailing zeros, so
// an id of 1234567890123 stays "1234567890123". Magnitudes no id or level
// reaches keep the exponent, so 1e300 does not become 301 characters.
func formatNumber(f float64) string {
	if math.Abs(f) >= 1e21 {
		return strconv.FormatFloat(f, 'g', -1, 64)
	}
	return strconv.FormatFloat(f, 'f', -1, 64)
}

// rfc3339 returns the required RFC 3339 time at key.
func (r reader) rfc3339(key string) (time.Time, error) {
	s, err := r.str(key, true)
	if err != nil {
		return time.Time{}, err
	}
	t, ok := parseTime(s)
	if !ok {
		return time.Time{}, r.fail(key, "must be an RFC 3339 time")
	}
	return t, nil
}

// unixOrRFC3339 returns the required time at key, given either as an
// RFC 3339 string or as unix seconds (a number or a string of digits).
func (r reader) unixOrRFC3339(key string) (time.Time, error) {
	v, ok := r.get(key)
	if !ok {
		return time.Time{}, r.fail(key, "is required")
	}
	if t, ok := anyTime(v); ok {
		return t, nil
	}
	return time.Time{}, r.fail(key, "must be an RFC 3339 time or unix seconds")
}

// unixSeconds returns the required unix time in seconds at key, given as a
// number or as a string of digits (log-search tools often stringify).
func (r reader) unixSeconds(key string) (time.Time, error) {
	v, ok := r.get(key)
	if !ok {
		return time.Time{}, r.fail(key, "is required")
	}
	switch t := v.(type) {
	case float64:
		return fromUnix(t, time.Second), nil
	case string:
		if f, ok := decimal(t); ok {
			return fromUnix(f, time.Second), nil
		}
	}
	return time.Time{}, r.fail(key, "must be unix seconds")
}
