package content

import (
	"errors"
	"fmt"
	"sort"
)

// Problem is one finding about a package: at an item (Index) and a field
// path inside it, and, for a package built from a folder, at a file and
// line.
type Problem struct {
	Index   *int   `json:"index,omitempty"`
	Field   string `json:"field,omitempty"`
	File    string `json:"file,omitempty"`
	Line    int    `json:"line,omitempty"`
	Message string `json:"message"`
}

func (p Problem) String() string {
	s := ""
	if p.File != "" {
		s = p.File
		if p.Line > 0 {
			s += fmt.Sprintf(":%d", p.Line)
		}
		s += ": "
	}
	if p.Index != nil {
		s += fmt.Sprintf("contents[%d]", *p.Index)
		if p.Field != "" {
			s += "."
		}
	}
	s += p.Field
	if s != "" && s[len(s)-1] != ' ' {
		s += ": "
	}
	return s + p.Message
}

// ErrTooLarge means the package is larger than MaxSize.
var ErrTooLarge = fmt.Errorf("package is larger than %d MiB", MaxSize>>20)

// ErrTooManyItems means the package has more than MaxItems items.
var ErrTooManyItems = fmt.Errorf("package has more than %d items", MaxItems)

// ErrUnreadable means the text is not a package at all (not JSON, nested
// too deeply, not an object).
var ErrUnreadable = errors.New("package cannot be read")

// problems collects findings of one package.
type problems struct {
	list []Problem
	// bad marks items that must not be installed.
	bad map[int]bool
	// unread marks items that could not be decoded, so checking them
	// further would only repeat the same mistake.
	unread map[int]bool
}

func (ps *problems) unreadable(index int, field, format string, args ...any) {
	ps.add(index, field, format, args...)
	if ps.unread == nil {
		ps.unread = map[int]bool{}
	}
	ps.unread[index] = true
}

func (ps *problems) add(index int, field, format string, args ...any) {
	p := Problem{Field: field, Message: fmt.Sprintf(format, args...)}
	if index >= 0 {
		i := index
		p.Index = &i
		if ps.bad == nil {
			ps.bad = map[int]bool{}
		}
		ps.bad[index] = true
	}
	ps.list = append(ps.list, p)
}

func (ps *problems) sorted() []Problem {
	out := append([]Problem{}, ps.list...)
	sort.SliceStable(out, func(i, j int) bool {
		a, b := -1, -1
		if out[i].Index != nil {
			a = *out[i].Index
		}
		if out[j].Index != nil {
			b = *out[j].Index
		}
		return a < b
	})
	return out
}
