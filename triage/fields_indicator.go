package triage

// indicatorEntries indexes an indicator object that names its own field,
// {"type": "command_line", "field": "processCmd", "value": "..."} as XDR
// workbenches list them (Trend Vision One, and incident entity lists
// like it), under the field it names, so that lookups by field name see
// the value as if it had been a key of its own, and under its type.
func indicatorEntries(m map[string]any, depth int) []entry {
	field, ok := m["field"].(string)
	if !ok || field == "" {
		return nil
	}
	val, ok := m["value"]
	if !ok {
		return nil
	}
	if _, isString := val.(string); !isString {
		return nil
	}
	out := []entry{{key: normKey(field), val: val, depth: depth}}
	for _, q := range qualifiedKeys(nil, field) {
		out = append(out, entry{key: q, val: val, depth: depth})
	}
	// The indicator's type says what the value is ("command_line"),
	// in the words generic lookups use.
	if typ, ok := m["type"].(string); ok && typ != "" && normKey(typ) != normKey(field) {
		out = append(out, entry{key: normKey(typ), val: val, depth: depth})
	}
	return out
}
