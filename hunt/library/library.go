// Package library is the built-in hunt query library: queries in the eight
// technique categories, each with MITRE ATT&CK technique ids, parameters
// with defaults, an expected baseline, a severity, and templates in SQL
// (over the normalized event schema, portable across PostgreSQL,
// MariaDB/MySQL and SQLite; the window is always :from and :to) and SPL.
package library

import (
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// Categories of the library, in the order the SPEC names them.
const (
	CatInitialAccess    = "initial_access"
	CatExecution        = "execution"
	CatPersistence      = "persistence"
	CatCredentialAccess = "credential_access"
	CatLateralMovement  = "lateral_movement"
	CatCollection       = "collection"
	CatCommandControl   = "command_and_control"
	CatExfiltration     = "exfiltration"
)

// Categories lists every category.
var Categories = []string{CatInitialAccess, CatExecution, CatPersistence, CatCredentialAccess,
	CatLateralMovement, CatCollection, CatCommandControl, CatExfiltration}

// Param is a query parameter with its default.
type Param struct {
	Name        string `json:"name"`
	Type        string `json:"type"` // "int" or "string"
	Default     any    `json:"default"`
	Description string `json:"description"`
}

// Query is one library query.
type Query struct {
	ID               string   `json:"id"`
	Name             string   `json:"name"`
	Category         string   `json:"category"`
	Description      string   `json:"description"`
	MitreTechniques  []string `json:"mitre_techniques"`
	Severity         string   `json:"severity"`
	ExpectedBaseline float64  `json:"expected_baseline"`
	Params           []Param  `json:"parameters"`
	// Keys are the result columns that identify the evidence; the finding
	// fingerprint is built from them.
	Keys []string `json:"key_fields"`
	SQL  string   `json:"sql"`
	SPL  string   `json:"spl"`
}

// All returns the library, sorted by category then id.
func All() []Query {
	out := slices.Clone(queries)
	sort.SliceStable(out, func(i, j int) bool {
		ci, cj := slices.Index(Categories, out[i].Category), slices.Index(Categories, out[j].Category)
		if ci != cj {
			return ci < cj
		}
		return out[i].ID < out[j].ID
	})
	return out
}

// Get returns the query with the given id.
func Get(id string) (Query, bool) {
	for _, q := range queries {
		if q.ID == id {
			return q, true
		}
	}
	return Query{}, false
}

// ParamError names a parameter whose value does not fit.
type ParamError struct{ Name, Message string }

func (e *ParamError) Error() string { return "parameter " + e.Name + ": " + e.Message }

// Bind returns the parameter values for a run: the defaults overlaid with
// values, each checked against its declared type. Unknown names are errors.
func (q Query) Bind(values map[string]any) (map[string]any, error) {
	out := make(map[string]any, len(q.Params))
	for _, p := range q.Params {
		out[p.Name] = p.Default
	}
	for name, v := range values {
		i := slices.IndexFunc(q.Params, func(p Param) bool { return p.Name == name })
		if i < 0 {
			return nil, &ParamError{name, "unknown to query " + q.ID}
		}
		cv, err := convert(q.Params[i].Type, v)
		if err != nil {
			return nil, &ParamError{name, err.Error()}
		}
		out[name] = cv
	}
	return out, nil
}

func convert(typ string, v any) (any, error) {
	switch typ {
	case "int":
		switch t := v.(type) {
		case float64:
			if t != float64(int64(t)) {
				return nil, fmt.Errorf("must be a whole number")
			}
			return int64(t), nil
		case int:
			return int64(t), nil
		case int64:
			return t, nil
		case string:
			n, err := strconv.ParseInt(t, 10, 64)
			if err != nil {
				return nil, fmt.Errorf("must be a whole number")
			}
			return n, nil
		}
		return nil, fmt.Errorf("must be a whole number")
	default:
		s, ok := v.(string)
		if !ok {
			return nil, fmt.Errorf("must be a string")
		}
		return s, nil
	}
}

var splToken = regexp.MustCompile(`\$([a-z_]+)\$`)

// RenderSPL fills the $name$ tokens of the SPL template with bound values,
// quoting strings so a value cannot end the search string.
func (q Query) RenderSPL(values map[string]any) string {
	return splToken.ReplaceAllStringFunc(q.SPL, func(tok string) string {
		name := strings.Trim(tok, "$")
		switch v := values[name].(type) {
		case string:
			return strconv.Quote(v)
		case nil:
			return tok
		default:
			return fmt.Sprint(v)
		}
	})
}
