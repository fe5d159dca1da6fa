package playbook

import (
	"embed"
	"path"
)

// builtinFiles are the playbooks every installation starts with, one per
// file; files are read in name order.
//
//go:embed builtin/*.yaml
var builtinFiles embed.FS

//go:embed schema.json
var schema []byte

// Builtins returns the built-in playbooks in file name order. Each call
// parses them afresh, so callers own what they get. Every built-in is
// valid; tests keep it that way, and one that were not would be left out
// rather than handed to a run.
func Builtins() []*Playbook {
	var out []*Playbook
	for _, text := range builtinTexts() {
		if r := Parse(text); r.Valid() {
			out = append(out, r.Playbook)
		}
	}
	return out
}

// BuiltinYAML returns the YAML text of the built-in playbook with the given
// name (its name: field, such as "Phishing triage").
func BuiltinYAML(name string) ([]byte, bool) {
	for _, text := range builtinTexts() {
		if r := Parse(text); r.Playbook != nil && r.Playbook.Name == name {
			return text, true
		}
	}
	return nil, false
}

func builtinTexts() [][]byte {
	entries, err := builtinFiles.ReadDir("builtin")
	if err != nil {
		return nil
	}
	out := make([][]byte, 0, len(entries))
	for _, e := range entries {
		text, err := builtinFiles.ReadFile(path.Join("builtin", e.Name()))
		if err == nil {
			out = append(out, text)
		}
	}
	return out
}

// Schema returns the JSON Schema (draft 2020-12) of the playbook YAML
// format, for editors that complete and check playbooks as they are typed.
// The caller gets its own copy.
func Schema() []byte { return append([]byte(nil), schema...) }
