package playbook

import (
	"fmt"
	"sort"
	"strings"
)

// Problem is one validation finding at a line of the YAML text (1-based; 0
// when unknown, as for playbooks that did not come from YAML).
type Problem struct {
	Line    int    `json:"line"`
	Message string `json:"message"`
}

// Result is the outcome of reading or checking a playbook.
type Result struct {
	// Playbook is what was read. It is nil when the text is not a YAML
	// mapping at all, and may be incomplete when Errors is not empty.
	Playbook *Playbook
	// Errors make the playbook unusable; sorted by line, then message.
	Errors []Problem
	// Warnings point at likely mistakes that do not stop a run; sorted
	// like Errors.
	Warnings []Problem
}

// Valid reports whether a playbook was read and has no errors.
func (r Result) Valid() bool { return r.Playbook != nil && len(r.Errors) == 0 }

// source maps paths inside a playbook ("steps[2].parameters.sender") to the
// YAML line they were read from, and remembers paths whose value had the
// wrong shape so validation does not report the same mistake again as a
// missing value. A nil source knows no lines, which is what Validate uses
// for playbooks that arrived as JSON.
type source struct {
	lines map[string]int
	bad   map[string]bool
}

// line returns the line of path or, when it was not recorded (a missing
// key), of its closest recorded ancestor: the mapping it belongs in.
func (s *source) line(path string) int {
	if s == nil {
		return 0
	}
	for {
		if l, ok := s.lines[path]; ok {
			return l
		}
		cut := strings.LastIndexAny(path, ".[")
		if cut < 0 {
			return s.lines[""]
		}
		path = path[:cut]
	}
}

func (s *source) isBad(path string) bool { return s != nil && s.bad[path] }

// report collects problems and sorts them once at the end.
type report struct {
	src      *source
	errors   []Problem
	warnings []Problem
}

func (r *report) errorf(path, format string, args ...any) {
	r.errors = append(r.errors, Problem{Line: r.src.line(path), Message: fmt.Sprintf(format, args...)})
}

func (r *report) warnf(path, format string, args ...any) {
	r.warnings = append(r.warnings, Problem{Line: r.src.line(path), Message: fmt.Sprintf(format, args...)})
}

func (r *report) result(p *Playbook) Result {
	return Result{Playbook: p, Errors: sortProblems(r.errors), Warnings: sortProblems(r.warnings)}
}

// sortProblems orders problems by line and message and drops exact
// duplicates (a mistake reached along two paths is still one mistake).
func sortProblems(ps []Problem) []Problem {
	if len(ps) == 0 {
		return nil
	}
	sort.Slice(ps, func(i, j int) bool {
		if ps[i].Line != ps[j].Line {
			return ps[i].Line < ps[j].Line
		}
		return ps[i].Message < ps[j].Message
	})
	out := ps[:1]
	for _, p := range ps[1:] {
		if p != out[len(out)-1] {
			out = append(out, p)
		}
	}
	return out
}
