package playbook

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"

	yaml "go.yaml.in/yaml/v3"
)

// Bounds on YAML input. Playbooks are written by people, so real ones are a
// few kilobytes and a handful of levels deep; the bounds only stop hostile
// text from costing memory or time.
const (
	// MaxSize is the largest playbook text Parse accepts, in bytes.
	MaxSize = 256 << 10
	// maxDepth caps how deeply YAML collections nest. A branch step's
	// parameters sit seven levels down, which leaves room for structured
	// parameter values.
	maxDepth = 32
)

// Parse reads YAML text and validates it. It never panics on hostile input:
// the text is capped at MaxSize, nesting at a fixed depth, and aliases are
// refused outright because expanding them is how small documents grow
// without bound (and a playbook never needs them).
func Parse(text []byte) (res Result) {
	defer func() {
		// The YAML library is not ours; a panic inside it on some exotic
		// input must still come back as a finding, not take the caller's
		// process (a workflow worker or an API server) down with it.
		if recover() != nil {
			res = Result{Errors: []Problem{{Line: 0, Message: "cannot read the text as YAML"}}}
		}
	}()
	if len(text) > MaxSize {
		return Result{Errors: []Problem{{Line: 0, Message: fmt.Sprintf("playbook is larger than %d KiB", MaxSize>>10)}}}
	}
	root, problem := parseDocument(text)
	if problem != nil {
		return Result{Errors: []Problem{*problem}}
	}
	if problem := checkShape(root); problem != nil {
		return Result{Errors: []Problem{*problem}}
	}
	d := &decoder{src: &source{lines: map[string]int{"": root.Line}, bad: map[string]bool{}}}
	p := d.playbook(root)
	if p == nil {
		return Result{Errors: sortProblems(d.errors)}
	}
	rep := &report{src: d.src, errors: d.errors}
	validate(p, rep)
	return rep.result(p)
}

// parseDocument parses text into the root node of its single document.
func parseDocument(text []byte) (*yaml.Node, *Problem) {
	dec := yaml.NewDecoder(bytes.NewReader(text))
	var doc yaml.Node
	if err := dec.Decode(&doc); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, &Problem{Line: 1, Message: "playbook is empty"}
		}
		return nil, syntaxProblem(err)
	}
	var extra yaml.Node
	switch err := dec.Decode(&extra); {
	case err == nil:
		// Several documents in one text is almost always two playbooks
		// pasted together; reading only the first would hide the second.
		return nil, &Problem{Line: extra.Line, Message: "only one YAML document is allowed"}
	case !errors.Is(err, io.EOF):
		return nil, syntaxProblem(err)
	}
	if len(doc.Content) == 0 {
		return nil, &Problem{Line: 1, Message: "playbook is empty"}
	}
	root := doc.Content[0]
	if root.Kind == yaml.ScalarNode && root.ShortTag() == "!!null" {
		return nil, &Problem{Line: root.Line, Message: "playbook is empty"}
	}
	return root, nil
}

var yamlLine = regexp.MustCompile(`^(?:yaml: )?line (\d+): `)

// syntaxProblem turns the YAML library's "yaml: line N: message" into a
// Problem at line N.
func syntaxProblem(err error) *Problem {
	msg := err.Error()
	if m := yamlLine.FindStringSubmatch(msg); m != nil {
		line, _ := strconv.Atoi(m[1])
		return &Problem{Line: line, Message: "invalid YAML: " + msg[len(m[0]):]}
	}
	return &Problem{Line: 0, Message: "invalid YAML: " + strings.TrimPrefix(msg, "yaml: ")}
}

// checkShape walks the whole tree once, without recursion, and refuses
// aliases and excessive nesting before any other code recurses into it.
func checkShape(root *yaml.Node) *Problem {
	type item struct {
		n     *yaml.Node
		depth int
	}
	var first *Problem
	// Keep the earliest finding by line, so the answer does not depend on
	// the walk order.
	note := func(line int, msg string) {
		if first == nil || line < first.Line || (line == first.Line && msg < first.Message) {
			first = &Problem{Line: line, Message: msg}
		}
	}
	stack := []item{{root, 1}}
	for len(stack) > 0 {
		it := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if it.n.Kind == yaml.AliasNode {
			note(it.n.Line, "YAML aliases (*name) are not supported")
			continue
		}
		if it.depth > maxDepth {
			note(it.n.Line, fmt.Sprintf("YAML nests more than %d levels deep", maxDepth))
			continue
		}
		for _, c := range it.n.Content {
			stack = append(stack, item{c, it.depth + 1})
		}
	}
	return first
}
