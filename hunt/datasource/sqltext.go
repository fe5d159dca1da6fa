package datasource

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode"
)

// Placeholder styles of the SQL engines.
const (
	placeholderDollar   = "dollar"   // PostgreSQL: $1, $2...
	placeholderQuestion = "question" // MariaDB/MySQL and SQLite: ?
)

// ErrMultipleStatements refuses SQL holding more than one statement.
var ErrMultipleStatements = errors.New("the query must be a single statement")

// ErrNotSelect refuses SQL that does not read (SELECT or WITH).
var ErrNotSelect = errors.New("the query must start with SELECT or WITH")

// ErrMissingParam names a :parameter the query uses without a value.
type ErrMissingParam struct{ Name string }

func (e *ErrMissingParam) Error() string {
	return fmt.Sprintf("the query uses parameter :%s, which has no value", e.Name)
}

// bindSQL checks that text is one reading statement and turns each
// :name into the engine's positional placeholder, returning the values in
// order. Literals, quoted identifiers and comments are left alone, so a
// ':' inside a string is never taken for a parameter; '::' casts stay.
func bindSQL(text, style string, params map[string]any) (string, []any, error) {
	text = strings.TrimRightFunc(text, unicode.IsSpace)
	text = strings.TrimSuffix(text, ";")
	var (
		out  strings.Builder
		args []any
		n    = len(text)
	)
	first := ""
	for i := 0; i < n; {
		c := text[i]
		switch {
		case c == '\'' || c == '"' || c == '`':
			j := skipQuoted(text, i)
			out.WriteString(text[i:j])
			i = j
		case c == '-' && i+1 < n && text[i+1] == '-':
			j := strings.IndexByte(text[i:], '\n')
			if j < 0 {
				j = n - i
			}
			out.WriteString(text[i : i+j])
			i += j
		case c == '/' && i+1 < n && text[i+1] == '*':
			j := strings.Index(text[i+2:], "*/")
			if j < 0 {
				return "", nil, errors.New("unterminated comment")
			}
			out.WriteString(text[i : i+j+4])
			i += j + 4
		case c == ';':
			if strings.TrimSpace(text[i+1:]) != "" {
				return "", nil, ErrMultipleStatements
			}
			i = n
		case c == ':' && i+1 < n && text[i+1] == ':':
			out.WriteString("::")
			i += 2
		case c == ':' && i+1 < n && isIdentStart(text[i+1]) && (i == 0 || !isIdentPart(text[i-1])):
			j := i + 1
			for j < n && isIdentPart(text[j]) {
				j++
			}
			name := text[i+1 : j]
			v, ok := params[name]
			if !ok {
				return "", nil, &ErrMissingParam{Name: name}
			}
			args = append(args, v)
			if style == placeholderDollar {
				out.WriteString("$" + strconv.Itoa(len(args)))
			} else {
				out.WriteByte('?')
			}
			i = j
		default:
			if first == "" && isIdentStart(c) {
				j := i
				for j < n && isIdentPart(text[j]) {
					j++
				}
				first = strings.ToUpper(text[i:j])
				out.WriteString(text[i:j])
				i = j
				continue
			}
			if style == placeholderDollar && c == '$' || style == placeholderQuestion && c == '?' {
				return "", nil, errors.New("use :name parameters, not positional placeholders")
			}
			out.WriteByte(c)
			i++
		}
	}
	if first != "SELECT" && first != "WITH" {
		return "", nil, ErrNotSelect
	}
	return out.String(), args, nil
}

// skipQuoted returns the index just past the quoted run starting at i; a
// doubled quote stands for itself, and a backslash escapes in MariaDB
// strings, so both are skipped.
func skipQuoted(text string, i int) int {
	q := text[i]
	j := i + 1
	for j < len(text) {
		switch {
		case text[j] == '\\' && q == '\'':
			j += 2
		case text[j] == q && j+1 < len(text) && text[j+1] == q:
			j += 2
		case text[j] == q:
			return j + 1
		default:
			j++
		}
	}
	return len(text)
}

func isIdentStart(c byte) bool { return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

func isIdentPart(c byte) bool { return isIdentStart(c) || c >= '0' && c <= '9' }
