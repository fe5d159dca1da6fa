package playbook

import (
	"fmt"
	"math"

	yaml "go.yaml.in/yaml/v3"
)

// decoder turns a checked YAML tree into a Playbook by hand rather than
// through yaml.Unmarshal, because validation needs the line of every value
// and typos in keys must be errors, not silently ignored fields.
type decoder struct {
	src    *source
	errors []Problem
}

func (d *decoder) errorf(n *yaml.Node, format string, args ...any) {
	d.errors = append(d.errors, Problem{Line: n.Line, Message: fmt.Sprintf(format, args...)})
}

// field is one key of a mapping with the nodes it was read from.
type field struct {
	key        string
	keyNode    *yaml.Node
	value      *yaml.Node
	valuePath  string
	parentPath string
}

// fields returns the entries of mapping n in document order, recording the
// line of each key under path.key. Anything but a mapping is reported with
// what (for example "triggers") and yields nothing.
func (d *decoder) fields(n *yaml.Node, path, what string) []field {
	if n.Kind != yaml.MappingNode {
		if n.Kind == yaml.ScalarNode && n.ShortTag() == "!!null" {
			return nil
		}
		d.errorf(n, "%s must be a mapping", what)
		d.src.bad[path] = true
		return nil
	}
	seen := make(map[string]bool, len(n.Content)/2)
	out := make([]field, 0, len(n.Content)/2)
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if k.Kind != yaml.ScalarNode {
			d.errorf(k, "%s: keys must be plain strings", what)
			continue
		}
		if k.ShortTag() == "!!merge" {
			d.errorf(k, "%s: merge keys (<<) are not supported", what)
			continue
		}
		if seen[k.Value] {
			d.errorf(k, "%s: duplicate key %q", what, k.Value)
			continue
		}
		seen[k.Value] = true
		p := join(path, k.Value)
		d.src.lines[p] = k.Line
		out = append(out, field{key: k.Value, keyNode: k, value: v, valuePath: p, parentPath: path})
	}
	return out
}

// join builds a child path: "" + "name" is "name", "steps[0]" + "name" is
// "steps[0].name".
func join(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

func index(path string, i int) string { return fmt.Sprintf("%s[%d]", path, i) }

// str reads a string field. Any scalar is accepted as its text, so
// `version: 1.0` means "1.0" as a reader expects; null is "".
func (d *decoder) str(f field, what string) string {
	n := f.value
	if n.Kind != yaml.ScalarNode {
		d.errorf(n, "%s must be a string", what)
		d.src.bad[f.valuePath] = true
		return ""
	}
	if n.ShortTag() == "!!null" {
		return ""
	}
	return n.Value
}

// boolean reads a true/false field; null is false.
func (d *decoder) boolean(f field, what string) bool {
	n := f.value
	if n.Kind == yaml.ScalarNode {
		switch n.ShortTag() {
		case "!!null":
			return false
		case "!!bool":
			var b bool
			if n.Decode(&b) == nil {
				return b
			}
		}
	}
	d.errorf(n, "%s must be true or false", what)
	d.src.bad[f.valuePath] = true
	return false
}

// sequence returns the items of a list field, recording each item's line
// under path[i]; null is an empty list.
func (d *decoder) sequence(n *yaml.Node, path, what string) ([]*yaml.Node, bool) {
	switch {
	case n.Kind == yaml.SequenceNode:
		for i, item := range n.Content {
			d.src.lines[index(path, i)] = item.Line
		}
		return n.Content, true
	case n.Kind == yaml.ScalarNode && n.ShortTag() == "!!null":
		return nil, true
	}
	d.errorf(n, "%s must be a list", what)
	d.src.bad[path] = true
	return nil, false
}

// value converts a YAML value (a variable or a parameter) into the plain
// types JSON decoding produces: string, float64, bool, nil, []any and
// map[string]any. Numbers all become float64 so a playbook read from YAML
// and the same playbook sent as JSON are equal.
func (d *decoder) value(n *yaml.Node, path, what string) any {
	if _, ok := d.src.lines[path]; !ok {
		d.src.lines[path] = n.Line
	}
	switch n.Kind {
	case yaml.MappingNode:
		fs := d.fields(n, path, what)
		m := make(map[string]any, len(fs))
		for _, f := range fs {
			m[f.key] = d.value(f.value, f.valuePath, what)
		}
		return m
	case yaml.SequenceNode:
		items, _ := d.sequence(n, path, what)
		l := make([]any, len(items))
		for i, item := range items {
			l[i] = d.value(item, index(path, i), what)
		}
		return l
	}
	switch tag := n.ShortTag(); tag {
	case "!!str", "!!timestamp":
		// Dates stay text: JSON has no date type and templates compare
		// them as strings.
		return n.Value
	case "!!null":
		return nil
	case "!!bool":
		var b bool
		if n.Decode(&b) == nil {
			return b
		}
	case "!!int", "!!float":
		var f float64
		if n.Decode(&f) == nil {
			if math.IsInf(f, 0) || math.IsNaN(f) {
				// JSON cannot carry them, so the stored playbook could
				// not be written back out.
				d.errorf(n, "%s: numbers must be finite", what)
				return nil
			}
			return f
		}
	default:
		d.errorf(n, "%s: unsupported YAML tag %s", what, tag)
		return nil
	}
	d.errorf(n, "%s: invalid %s value %q", what, n.ShortTag()[2:], n.Value)
	return nil
}
