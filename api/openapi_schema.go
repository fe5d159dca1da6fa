package api

import (
	"encoding"
	"encoding/json"
	"reflect"
	"strings"
	"time"
)

// schemaSet turns Go types into JSON Schema 2020-12 (the dialect of
// OpenAPI 3.1), collecting named struct types under components/schemas so
// each is written once and referenced everywhere else.
type schemaSet struct {
	defs map[string]any
	// names maps a type to its component name, so two types that share a
	// Go name in different packages get different names.
	names map[reflect.Type]string
	// request marks schemas of request bodies: their fields are all
	// optional on the wire, the handlers name what is missing.
	request bool
}

func newSchemaSet() *schemaSet {
	return &schemaSet{defs: map[string]any{}, names: map[reflect.Type]string{}}
}

var (
	timeType          = reflect.TypeOf(time.Time{})
	jsonMarshalerType = reflect.TypeOf((*json.Marshaler)(nil)).Elem()
	textMarshalerType = reflect.TypeOf((*encoding.TextMarshaler)(nil)).Elem()
)

// of returns the schema of values of t as encoding/json writes them.
func (ss *schemaSet) of(t reflect.Type) map[string]any {
	switch {
	case t == timeType:
		return map[string]any{"type": "string", "format": "date-time"}
	case t.Kind() == reflect.Pointer:
		return nullable(ss.of(t.Elem()))
	case t.Implements(jsonMarshalerType) || reflect.PointerTo(t).Implements(jsonMarshalerType):
		// A type that writes itself can be anything.
		return map[string]any{}
	case t.Implements(textMarshalerType):
		return map[string]any{"type": "string"}
	}
	switch t.Kind() {
	case reflect.Bool:
		return map[string]any{"type": "boolean"}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return map[string]any{"type": "integer"}
	case reflect.Float32, reflect.Float64:
		return map[string]any{"type": "number"}
	case reflect.String:
		return map[string]any{"type": "string"}
	case reflect.Slice, reflect.Array:
		if t.Elem().Kind() == reflect.Uint8 {
			return map[string]any{"type": "string", "contentEncoding": "base64"}
		}
		// A nil slice is written as null.
		return nullable(map[string]any{"type": "array", "items": ss.of(t.Elem())})
	case reflect.Map:
		return nullable(map[string]any{"type": "object", "additionalProperties": ss.of(t.Elem())})
	case reflect.Struct:
		return ss.ref(t)
	}
	// interface{} and anything else: any JSON value.
	return map[string]any{}
}

// ref registers a struct type as a component and returns a reference to it;
// anonymous structs are written inline.
func (ss *schemaSet) ref(t reflect.Type) map[string]any {
	if t.Name() == "" {
		return ss.structSchema(t)
	}
	name, seen := ss.names[t]
	if !seen {
		name = componentName(t)
		for taken := true; taken; {
			taken = false
			for other, n := range ss.names {
				if n == name && other != t {
					name, taken = name+"_", true
				}
			}
		}
		ss.names[t] = name
		ss.defs[name] = map[string]any{} // placeholder against recursion
		ss.defs[name] = ss.structSchema(t)
	}
	return map[string]any{"$ref": "#/components/schemas/" + name}
}

// componentName is a type's exported-looking name: its package and type,
// with generic arguments dropped.
func componentName(t reflect.Type) string {
	name := t.Name()
	if i := strings.IndexByte(name, '['); i >= 0 {
		name = name[:i]
	}
	pkg := t.PkgPath()
	if i := strings.LastIndexByte(pkg, '/'); i >= 0 {
		pkg = pkg[i+1:]
	}
	if name != "" {
		name = strings.ToUpper(name[:1]) + name[1:]
	}
	if pkg == "" || pkg == "api" {
		return name
	}
	return strings.ToUpper(pkg[:1]) + pkg[1:] + name
}

// structSchema lists a struct's JSON fields, embedded structs flattened as
// encoding/json does; fields without omitempty are always written, so they
// are required in answers.
func (ss *schemaSet) structSchema(t reflect.Type) map[string]any {
	props := map[string]any{}
	required := []string{}
	ss.addFields(t, props, &required)
	out := map[string]any{"type": "object", "properties": props}
	if len(required) > 0 {
		out["required"] = required
	}
	return out
}

func (ss *schemaSet) addFields(t reflect.Type, props map[string]any, required *[]string) {
	for i := range t.NumField() {
		f := t.Field(i)
		tag := f.Tag.Get("json")
		if tag == "-" {
			continue
		}
		name, opts, _ := strings.Cut(tag, ",")
		ft := f.Type
		if f.Anonymous && name == "" {
			if ft.Kind() == reflect.Pointer {
				ft = ft.Elem()
			}
			if ft.Kind() == reflect.Struct {
				ss.addFields(ft, props, required)
				continue
			}
		}
		if !f.IsExported() {
			continue
		}
		if name == "" {
			name = f.Name
		}
		s := ss.of(ft)
		if strings.Contains(opts, "string") {
			s = map[string]any{"type": "string"}
		}
		props[name] = s
		if !ss.request && !strings.Contains(opts, "omitempty") && !strings.Contains(opts, "omitzero") {
			*required = append(*required, name)
		}
	}
}

// nullable widens a schema to admit null; references go through anyOf
// because a $ref has no type of its own.
func nullable(s map[string]any) map[string]any {
	if typ, ok := s["type"].(string); ok {
		out := map[string]any{}
		for k, v := range s {
			out[k] = v
		}
		out["type"] = []string{typ, "null"}
		return out
	}
	if len(s) == 0 {
		return s
	}
	return map[string]any{"anyOf": []any{s, map[string]any{"type": "null"}}}
}
