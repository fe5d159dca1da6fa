package content

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"sort"
	"strings"
)

// Decode reads a package from JSON. It fails only when the text is not a
// package at all (ErrTooLarge, ErrTooManyItems, ErrUnreadable); mistakes
// inside the manifest or an item come back as problems, with the items
// they make unusable marked, so one report can name them all.
func Decode(text []byte) (*Package, *problems, error) {
	if len(text) > MaxSize {
		return nil, nil, ErrTooLarge
	}
	if err := checkDepth(text); err != nil {
		return nil, nil, err
	}
	var top map[string]json.RawMessage
	if err := json.Unmarshal(text, &top); err != nil {
		return nil, nil, fmt.Errorf("%w: %s", ErrUnreadable, describeJSON(err))
	}
	ps := &problems{}
	for _, k := range sortedKeys(top) {
		if !slices.Contains([]string{"manifest", "contents", "signature"}, k) {
			ps.add(-1, k, "unknown field; a package has manifest, contents and signature")
		}
	}
	p := &Package{}
	decodeManifest(top["manifest"], &p.Manifest, ps)
	if raw, ok := top["signature"]; ok && string(raw) != "null" {
		p.Signature = &Signature{}
		if err := strictUnmarshal(raw, p.Signature); err != nil {
			ps.add(-1, "signature", "%s", describeJSON(err))
		}
	}
	var items []json.RawMessage
	if raw, ok := top["contents"]; ok && string(raw) != "null" {
		if err := json.Unmarshal(raw, &items); err != nil {
			ps.add(-1, "contents", "must be an array of items")
		}
	}
	if len(items) > MaxItems {
		return nil, nil, ErrTooManyItems
	}
	p.Contents = make([]Item, len(items))
	for i, raw := range items {
		decodeItem(raw, i, &p.Contents[i], ps)
	}
	return p, ps, nil
}

func decodeManifest(raw json.RawMessage, m *Manifest, ps *problems) {
	if len(raw) == 0 || string(raw) == "null" {
		ps.add(-1, "manifest", "is required")
		return
	}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(raw, &fields); err != nil {
		ps.add(-1, "manifest", "must be an object")
		return
	}
	for _, k := range sortedKeys(fields) {
		if !slices.Contains(manifestFields, k) {
			ps.add(-1, "manifest."+k, "unknown field")
		}
	}
	for _, k := range sortedKeys(fields) {
		if slices.Contains(manifestFields, k) {
			if err := json.Unmarshal(fields[k], fieldOf(m, k)); err != nil {
				ps.add(-1, "manifest."+k, "%s", describeJSON(err))
			}
		}
	}
}

func fieldOf(m *Manifest, k string) any {
	switch k {
	case "name":
		return &m.Name
	case "version":
		return &m.Version
	case "description":
		return &m.Description
	case "author":
		return &m.Author
	case "license":
		return &m.License
	case "tags":
		return &m.Tags
	default:
		return &m.Compatibility
	}
}

func decodeItem(raw json.RawMessage, i int, it *Item, ps *problems) {
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(raw, &fields); err != nil || fields == nil {
		ps.unreadable(i, "", "must be an object")
		return
	}
	if err := json.Unmarshal(fields["type"], &it.Type); err != nil || it.Type == "" {
		ps.unreadable(i, "type", "is required: one of playbook, hunt, knowledge, query")
		return
	}
	allowed, ok := allowedFields[it.Type]
	if !ok {
		ps.unreadable(i, "type", "unknown item type %q; use playbook, hunt, knowledge or query", it.Type)
		return
	}
	for _, k := range sortedKeys(fields) {
		if !slices.Contains(allowed, k) {
			ps.add(i, k, "unknown field for a %s item", it.Type)
		}
	}
	if err := json.Unmarshal(raw, it); err != nil {
		ps.unreadable(i, "", "%s", describeJSON(err))
	}
}

// strictUnmarshal decodes raw into v, refusing fields v does not have.
func strictUnmarshal(raw []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	return dec.Decode(v)
}

// checkDepth walks the JSON tokens once, without building values, and
// refuses nesting deeper than MaxDepth before anything recurses into it.
func checkDepth(text []byte) error {
	dec := json.NewDecoder(bytes.NewReader(text))
	depth := 0
	for {
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("%w: %s", ErrUnreadable, describeJSON(err))
		}
		if d, ok := tok.(json.Delim); ok {
			switch d {
			case '{', '[':
				depth++
				if depth > MaxDepth {
					return fmt.Errorf("%w: values nest more than %d levels deep", ErrUnreadable, MaxDepth)
				}
			default:
				depth--
			}
		}
	}
}

// describeJSON shortens the JSON library's messages to what a package
// author can act on.
func describeJSON(err error) string {
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		if te.Field != "" {
			return fmt.Sprintf("%s must be %s, not %s", te.Field, kindName(te.Type.Kind().String()), te.Value)
		}
		return fmt.Sprintf("must be %s, not %s", kindName(te.Type.Kind().String()), te.Value)
	}
	return strings.TrimPrefix(err.Error(), "json: ")
}

func kindName(k string) string {
	switch k {
	case "slice", "array":
		return "an array"
	case "map", "struct":
		return "an object"
	case "float64", "int", "int64":
		return "a number"
	case "bool":
		return "a boolean"
	}
	return "a " + k
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
