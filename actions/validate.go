package actions

import (
	"encoding/json"
	"math"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Validate checks params against t's parameter list. It returns the
// normalized parameters (strings trimmed, integers as int64, defaults
// filled, JSON nulls of optional parameters dropped) and, when anything is
// wrong, a map from "parameters.<name>" to a message; the normalized map is
// nil in that case.
func (t Type) Validate(params map[string]any) (map[string]any, map[string]string) {
	errs := map[string]string{}
	out := make(map[string]any, len(t.Parameters))
	for name := range params {
		if _, ok := t.Param(name); !ok {
			errs[fieldKey(name)] = "unknown parameter"
		}
	}
	for _, p := range t.Parameters {
		raw, present := params[p.Name]
		if present && raw == nil {
			present = false
		}
		if !present {
			switch {
			case p.Required:
				errs[fieldKey(p.Name)] = "is required"
			case p.Default != nil:
				out[p.Name] = p.Default
			}
			continue
		}
		v, msg := p.check(raw)
		if msg != "" {
			errs[fieldKey(p.Name)] = msg
			continue
		}
		if v != nil {
			out[p.Name] = v
		}
	}
	if len(errs) > 0 {
		return nil, errs
	}
	return out, nil
}

func fieldKey(name string) string { return "parameters." + name }

// check validates one present, non-null value and returns its normalized
// form, or a message saying what is wrong.
func (p Param) check(raw any) (any, string) {
	v, msg := checkType(p.Type, raw)
	if msg != "" {
		return nil, msg
	}
	s, isString := v.(string)
	if !isString {
		return v, ""
	}
	if s == "" {
		if p.Required {
			return nil, "is required"
		}
		// An empty optional string says nothing; dropping it keeps
		// defaults and "omitted" meaning the same thing.
		if p.Default != nil {
			return p.Default, ""
		}
		return nil, ""
	}
	limit := p.MaxLength
	if limit == 0 {
		limit = DefaultMaxLength
	}
	if n := utf8.RuneCountInString(s); n > limit {
		return nil, "must be at most " + strconv.Itoa(limit) + " characters"
	}
	if len(p.Enum) > 0 && !contains(p.Enum, s) {
		return nil, "must be one of: " + strings.Join(p.Enum, ", ")
	}
	switch p.Format {
	case FormatSender:
		if !isEmail(s) && !isDomain(s) {
			return nil, "must be an email address or a domain"
		}
	case FormatUser:
		if !isEmail(s) && !usernamePattern.MatchString(s) {
			return nil, "must be a username or an email address"
		}
	}
	return s, ""
}

// checkType enforces the JSON type. Values arrive decoded from JSON, so
// every number is a float64 (or json.Number when the decoder asked for it);
// Go integers are accepted too for callers building parameters in code.
func checkType(typ string, raw any) (any, string) {
	switch typ {
	case TypeString:
		if s, ok := raw.(string); ok {
			return strings.TrimSpace(s), ""
		}
		return nil, "must be a string"
	case TypeInteger:
		if n, ok := wholeNumber(raw); ok {
			return n, ""
		}
		return nil, "must be an integer"
	case TypeBoolean:
		if b, ok := raw.(bool); ok {
			return b, ""
		}
		return nil, "must be a boolean"
	case TypeObject:
		if m, ok := raw.(map[string]any); ok {
			return m, ""
		}
		return nil, "must be an object"
	case TypeArray:
		if a, ok := raw.([]any); ok {
			return a, ""
		}
		return nil, "must be an array"
	}
	return nil, "has an unsupported type " + typ
}

// maxExactFloat is the largest integer a float64 holds exactly; beyond it
// "whole number" stops meaning the value the caller wrote.
const maxExactFloat = 1 << 53

func wholeNumber(raw any) (int64, bool) {
	switch n := raw.(type) {
	case float64:
		if math.Trunc(n) != n || math.Abs(n) > maxExactFloat {
			return 0, false
		}
		return int64(n), true
	case json.Number:
		i, err := n.Int64()
		return i, err == nil
	case int:
		return int64(n), true
	case int32:
		return int64(n), true
	case int64:
		return n, true
	}
	return 0, false
}

var (
	// domainPattern: dot-separated DNS labels ending in an alphabetic TLD.
	domainPattern = regexp.MustCompile(`^(?i)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$`)
	// localPattern is the dot-atom form of an address's local part; quoted
	// local parts are legal but never seen in practice and hard to block on.
	localPattern    = regexp.MustCompile(`^[A-Za-z0-9!#$%&'*+/=?^_` + "`" + `{|}~-]+(\.[A-Za-z0-9!#$%&'*+/=?^_` + "`" + `{|}~-]+)*$`)
	usernamePattern = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$`)
)

func isDomain(s string) bool { return len(s) <= 253 && domainPattern.MatchString(s) }

func isEmail(s string) bool {
	at := strings.LastIndexByte(s, '@')
	if at <= 0 || at > 64 {
		return false
	}
	return localPattern.MatchString(s[:at]) && isDomain(s[at+1:])
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

// RollbackParameters builds the parameters of t's rollback action from the
// parameters the original action ran with: every parameter the two types
// share is carried over (message_id, sender, host_id), and the reason
// becomes "rollback of <original reason>", or is left out when the original
// gave none. It returns nil when t has no rollback.
func (t Type) RollbackParameters(original map[string]any) map[string]any {
	if !t.SupportsRollback {
		return nil
	}
	reverse, ok := Lookup(t.RollbackAction)
	if !ok {
		return nil
	}
	out := map[string]any{}
	for _, p := range reverse.Parameters {
		if p.Name == "reason" {
			continue
		}
		if v, ok := original[p.Name]; ok && v != nil {
			out[p.Name] = v
		}
	}
	if reason, _ := original["reason"].(string); strings.TrimSpace(reason) != "" {
		if rp, ok := reverse.Param("reason"); ok {
			out["reason"] = truncate("rollback of "+strings.TrimSpace(reason), rp.MaxLength)
		}
	}
	return out
}

// truncate keeps a derived string within the parameter's limit so the
// rollback action validates even when the original reason was at the limit.
func truncate(s string, limit int) string {
	if limit == 0 {
		limit = DefaultMaxLength
	}
	if utf8.RuneCountInString(s) <= limit {
		return s
	}
	r := []rune(s)
	return string(r[:limit])
}
