package content

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"

	yaml "go.yaml.in/yaml/v3"
)

// A package folder is what a content repository keeps under version
// control, one file per item so changes review well:
//
//	manifest.yaml       the manifest
//	playbooks/*.yaml    Vigil playbook documents
//	hunts/*.yaml        a hunt: name plus the hunt's fields
//	queries/*.yaml      a library query: name, query_type, query, ...
//	knowledge/*.md      Markdown; optional front matter (title, tags,
//	                    incident_types) between --- lines, else the
//	                    first "# " heading is the title
const ManifestFile = "manifest.yaml"

// folderKinds maps each item folder to its item type and file extension.
var folderKinds = []struct{ dir, itemType, ext string }{
	{"playbooks", TypePlaybook, ".yaml"},
	{"hunts", TypeHunt, ".yaml"},
	{"queries", TypeQuery, ".yaml"},
	{"knowledge", TypeKnowledge, ".md"},
}

// Folder is a package built from a folder: its JSON text and where each
// item came from.
type Folder struct {
	JSON    []byte
	Sources []Source
	// Manifest locates the manifest's fields in manifest.yaml.
	Manifest Source
}

// BuildFolder reads a package folder. Files that cannot be read as YAML
// come back as problems with their file and line; the error is for a
// folder that cannot be read at all.
func BuildFolder(dir string) (*Folder, []Problem, error) {
	var problems []Problem
	manifestPath := filepath.Join(dir, ManifestFile)
	manifestText, err := readBounded(manifestPath)
	if err != nil {
		return nil, nil, err
	}
	manifest, root, pr := yamlValue(manifestText, manifestPath)
	f := &Folder{Manifest: Source{File: manifestPath}}
	if pr != nil {
		problems = append(problems, *pr)
	} else {
		lines := nodeLines(root)
		f.Manifest.Line = func(field string) int { return lineOf(lines, strings.TrimPrefix(field, "manifest.")) }
	}
	var items []any
	total := len(manifestText)
	for _, kind := range folderKinds {
		paths, err := filepath.Glob(filepath.Join(dir, kind.dir, "*"+kind.ext))
		if err != nil {
			return nil, nil, err
		}
		sort.Strings(paths)
		for _, path := range paths {
			text, err := readBounded(path)
			if err != nil {
				return nil, nil, err
			}
			if total += len(text); total > MaxSize {
				return nil, nil, ErrTooLarge
			}
			if len(items) >= MaxItems {
				return nil, nil, ErrTooManyItems
			}
			item, src, pr := folderItem(kind.itemType, path, text)
			if pr != nil {
				problems = append(problems, *pr)
				continue
			}
			items = append(items, item)
			f.Sources = append(f.Sources, src)
		}
	}
	f.JSON, err = json.Marshal(map[string]any{"manifest": manifest, "contents": orEmptyList(items)})
	if err != nil {
		return nil, nil, err
	}
	return f, problems, nil
}

func orEmptyList(v []any) []any {
	if v == nil {
		return []any{}
	}
	return v
}

func readBounded(path string) ([]byte, error) {
	fh, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer fh.Close()
	text, err := io.ReadAll(io.LimitReader(fh, MaxSize+1))
	if err != nil {
		return nil, err
	}
	if len(text) > MaxSize {
		return nil, fmt.Errorf("%s: %w", path, ErrTooLarge)
	}
	return text, nil
}

// folderItem turns one file into a package item and its source.
func folderItem(itemType, path string, text []byte) (map[string]any, Source, *Problem) {
	src := Source{File: path}
	if itemType == TypeKnowledge {
		item, pr := markdownItem(path, text)
		return item, src, pr
	}
	v, root, pr := yamlValue(text, path)
	if pr != nil {
		return nil, src, pr
	}
	fields, ok := v.(map[string]any)
	if !ok {
		return nil, src, &Problem{File: path, Line: root.Line, Message: "must be a YAML mapping"}
	}
	lines := nodeLines(root)
	item := map[string]any{"type": itemType}
	switch itemType {
	case TypePlaybook:
		src.Playbook = text
		item["name"], item["data"] = fields["name"], fields
		src.Line = func(field string) int {
			return lineOf(lines, strings.TrimPrefix(strings.TrimPrefix(field, "data"), "."))
		}
	case TypeHunt:
		item["name"] = fields["name"]
		delete(fields, "name")
		item["data"] = fields
		src.Line = func(field string) int {
			if field == "name" {
				return lineOf(lines, "name")
			}
			return lineOf(lines, strings.TrimPrefix(strings.TrimPrefix(field, "data"), "."))
		}
	default:
		for k, val := range fields {
			item[k] = val
		}
		src.Line = func(field string) int { return lineOf(lines, field) }
	}
	return item, src, nil
}

var frontMatterEnd = regexp.MustCompile(`(?m)^---\s*$`)

// markdownItem reads a knowledge article: optional YAML front matter,
// then the Markdown body.
func markdownItem(path string, text []byte) (map[string]any, *Problem) {
	item := map[string]any{"type": TypeKnowledge}
	body := string(text)
	if strings.HasPrefix(body, "---\n") {
		rest := body[4:]
		loc := frontMatterEnd.FindStringIndex(rest)
		if loc == nil {
			return nil, &Problem{File: path, Line: 1, Message: "front matter opened with --- is never closed"}
		}
		v, _, pr := yamlValue([]byte(rest[:loc[0]]), path)
		if pr != nil {
			pr.Line++
			return nil, pr
		}
		meta, ok := v.(map[string]any)
		if !ok {
			return nil, &Problem{File: path, Line: 2, Message: "front matter must be a YAML mapping"}
		}
		for k, val := range meta {
			item[k] = val
		}
		body = strings.TrimLeft(rest[loc[1]:], "\n")
	}
	if _, ok := item["title"]; !ok {
		for _, line := range strings.Split(body, "\n") {
			if t, ok := strings.CutPrefix(line, "# "); ok {
				item["title"] = strings.TrimSpace(t)
				break
			}
		}
	}
	item["content"] = body
	return item, nil
}

// yamlValue parses one YAML document into plain values after refusing
// aliases and deep nesting, the two ways a small YAML text grows huge.
func yamlValue(text []byte, path string) (any, *yaml.Node, *Problem) {
	var doc yaml.Node
	dec := yaml.NewDecoder(bytes.NewReader(text))
	if err := dec.Decode(&doc); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, nil, &Problem{File: path, Line: 1, Message: "file is empty"}
		}
		return nil, nil, yamlProblem(path, err)
	}
	var extra yaml.Node
	if err := dec.Decode(&extra); err == nil {
		// A second document is almost always two files pasted together;
		// reading only the first would hide the second.
		return nil, nil, &Problem{File: path, Line: extra.Line, Message: "only one YAML document is allowed per file"}
	}
	if len(doc.Content) == 0 {
		return nil, nil, &Problem{File: path, Line: 1, Message: "file is empty"}
	}
	root := doc.Content[0]
	if pr := checkYAMLShape(root, path); pr != nil {
		return nil, nil, pr
	}
	var v any
	if err := root.Decode(&v); err != nil {
		return nil, nil, yamlProblem(path, err)
	}
	v, err := jsonCompatible(v)
	if err != nil {
		return nil, nil, &Problem{File: path, Line: root.Line, Message: err.Error()}
	}
	return v, root, nil
}

var yamlLineRE = regexp.MustCompile(`line (\d+): `)

func yamlProblem(path string, err error) *Problem {
	msg := strings.TrimPrefix(err.Error(), "yaml: ")
	line := 0
	if m := yamlLineRE.FindStringSubmatch(msg); m != nil {
		line, _ = strconv.Atoi(m[1])
		msg = strings.Replace(msg, m[0], "", 1)
	}
	return &Problem{File: path, Line: line, Message: "invalid YAML: " + msg}
}

func checkYAMLShape(root *yaml.Node, path string) *Problem {
	type entry struct {
		n     *yaml.Node
		depth int
	}
	var first *Problem
	// Keep the earliest finding, whatever order the walk takes.
	note := func(line int, msg string) {
		if first == nil || line < first.Line {
			first = &Problem{File: path, Line: line, Message: msg}
		}
	}
	stack := []entry{{root, 1}}
	for len(stack) > 0 {
		e := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if e.n.Kind == yaml.AliasNode {
			note(e.n.Line, "YAML aliases (*name) are not allowed in packages")
			continue
		}
		if e.depth > MaxDepth {
			note(e.n.Line, fmt.Sprintf("YAML nests more than %d levels deep", MaxDepth))
			continue
		}
		for _, c := range e.n.Content {
			stack = append(stack, entry{c, e.depth + 1})
		}
	}
	return first
}

// jsonCompatible checks YAML-decoded values can be written as JSON
// (mapping keys must be strings).
func jsonCompatible(v any) (any, error) {
	switch t := v.(type) {
	case map[string]any:
		for k, val := range t {
			c, err := jsonCompatible(val)
			if err != nil {
				return nil, err
			}
			t[k] = c
		}
	case map[any]any:
		return nil, errors.New("mapping keys must be strings")
	case []any:
		for i, val := range t {
			c, err := jsonCompatible(val)
			if err != nil {
				return nil, err
			}
			t[i] = c
		}
	}
	return v, nil
}

// nodeLines maps field paths ("queries[0].library_id") to their lines.
func nodeLines(root *yaml.Node) map[string]int {
	lines := map[string]int{"": root.Line}
	var walk func(n *yaml.Node, path string)
	walk = func(n *yaml.Node, path string) {
		switch n.Kind {
		case yaml.MappingNode:
			for i := 0; i+1 < len(n.Content); i += 2 {
				p := n.Content[i].Value
				if path != "" {
					p = path + "." + p
				}
				lines[p] = n.Content[i].Line
				walk(n.Content[i+1], p)
			}
		case yaml.SequenceNode:
			for i, c := range n.Content {
				p := fmt.Sprintf("%s[%d]", path, i)
				lines[p] = c.Line
				walk(c, p)
			}
		}
	}
	walk(root, "")
	return lines
}

// lineOf finds the line of path or of its closest recorded ancestor.
func lineOf(lines map[string]int, path string) int {
	for {
		if l, ok := lines[path]; ok {
			return l
		}
		cut := strings.LastIndexAny(path, ".[")
		if cut < 0 {
			return lines[""]
		}
		path = path[:cut]
	}
}
