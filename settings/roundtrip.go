package settings

import (
	"encoding/json"
	"slices"
	"strconv"
)

// viewMembers are the members a GET shows around a setting's value; a
// write ignores them, so that what was read can be sent back unchanged.
// (Read-only fields inside the value, such as the LLM's api_key_set, are
// ignored where that value is decoded.)
var viewMembers = []string{"key", "updated_at", "updated_by"}

// writableMembers returns the members of a write body that describe the
// setting. The body may be the bare value ({"instance_name": ...}), the
// setting as read ({"key", "value", "updated_at", "updated_by"}), or that
// inside the response envelope ({"data": {...}}). Read-only members are
// dropped; a "key" naming another setting, and anything unknown, is
// reported.
func writableMembers(key string, obj map[string]json.RawMessage, errs fieldErrors) map[string]json.RawMessage {
	if inner, ok := soleObject(obj, "data"); ok {
		obj = inner
	}
	if raw, ok := obj["key"]; ok {
		var named string
		if json.Unmarshal(raw, &named) != nil || named != key {
			errs.add("key", "must be "+strconv.Quote(key)+", the setting this request writes")
		}
	}
	if value, ok := objectMember(obj, "value"); ok {
		for name := range obj {
			if name != "value" && !slices.Contains(viewMembers, name) {
				errs.add(name, "unknown field")
			}
		}
		obj = value
	}
	for _, name := range viewMembers {
		delete(obj, name)
	}
	return obj
}

// soleObject returns obj[name] when it is obj's only member and an object.
func soleObject(obj map[string]json.RawMessage, name string) (map[string]json.RawMessage, bool) {
	if len(obj) != 1 {
		return nil, false
	}
	return objectMember(obj, name)
}

func objectMember(obj map[string]json.RawMessage, name string) (map[string]json.RawMessage, bool) {
	raw, ok := obj[name]
	if !ok {
		return nil, false
	}
	var inner map[string]json.RawMessage
	if json.Unmarshal(raw, &inner) != nil || inner == nil {
		return nil, false
	}
	return inner, true
}
