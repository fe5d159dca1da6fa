package triage

import (
	"encoding/json"
	"regexp"
	"strings"
)

// Vendors spell the same field many ways: nested ECS objects
// (process.parent.name), flattened dotted or underscored columns
// (kibana.alert.rule.name, actor_alternateId_s), camelCase or snake_case,
// and objects serialised into strings (Sentinel Entities and
// ExtendedProperties). The resolver gives every field its qualified names
// as well, so that a lookup for "parentname", "sourceip" or
// "clientipaddress" finds it whatever the schema, and the readers can list
// one vocabulary instead of one per vendor.

const (
	// maxQualify is how many trailing path segments a qualified name joins.
	maxQualify = 3
	// maxEmbeddedJSON bounds the strings parsed as embedded JSON.
	maxEmbeddedJSON = 64 << 10
)

// keySegments splits a raw key into its normalised segments on dots,
// underscores, dashes, slashes and spaces, dropping the one-letter type
// suffixes that log stores add to custom columns (_s, _b, _d, _g, _t).
func keySegments(k string) []string {
	parts := strings.FieldsFunc(k, func(r rune) bool {
		return r == '.' || r == '_' || r == '-' || r == '/' || r == ' ' || r == ':'
	})
	var segs []string
	for _, p := range parts {
		if n := normKey(p); n != "" {
			segs = append(segs, n)
		}
	}
	if len(segs) > 1 && len(segs[len(segs)-1]) == 1 && strings.Contains("sbdgt", segs[len(segs)-1]) {
		segs = segs[:len(segs)-1]
	}
	// A counting window (failed_attempts_last_10m, logins_24h) names the
	// same measure as the bare field.
	for len(segs) > 1 && timeWindow.MatchString(segs[len(segs)-1]) {
		segs = segs[:len(segs)-1]
		if len(segs) > 1 && (segs[len(segs)-1] == "last" || segs[len(segs)-1] == "past" || segs[len(segs)-1] == "in") {
			segs = segs[:len(segs)-1]
		}
	}
	return segs
}

var timeWindow = regexp.MustCompile(`^(last|past)?\d+(s|m|h|d|w|min|mins|hr|hrs|hours|days|minutes|seconds)$`)

// contextWords qualify a field as describing something other than the
// event itself (the user's usual country, the previous sign-in, the
// original value); a name is never shortened past one of them, so
// user_usual_country is not read as the sign-in's country.
var contextWords = setOf(append([]string{"usual", "previous", "prev", "prior", "last", "orig", "original", "old", "home", "typical",
	"expected", "baseline", "known", "historical", "first", "allowed", "normal", "before", "earlier",
	// A container's image or a pod's name is not the process's.
	"container", "pod",
	// What happened around the event is not the event, nor what followed.
	"surrounding", "history",
	// A reply-to address ("Reply-To") is not a recipient ("to").
	"reply",
	// An OData annotation ("@odata.type", "@odata.context") describes the
	// payload's schema, not the alert: "#microsoft.graph.security.alert"
	// is no title.
	"odata"}, followOnWords...)...)

// followOnWords are the key segments naming what happened after the
// event ("after_login", "subsequent_events", "next_actions").
var followOnWords = []string{"after", "subsequent", "following", "followed", "next", "later"}

// asideWords mark an object as describing another time or the subject's
// baseline (the user's usual place, the previous sign-in, what the session
// did next): fields inside it keep only their qualified names, so a
// country under user_usual is "usualcountry" and never the event's
// "country".
var asideWords = setOf(append([]string{"usual", "typical", "baseline", "historical", "history", "normal", "previous", "prev", "prior",
	"surrounding"}, followOnWords...)...)

// asideKey reports whether a raw key names such an object.
func asideKey(raw string) bool {
	for _, s := range keySegments(raw) {
		if asideWords[s] {
			return true
		}
	}
	return false
}

// camelAsideKey reports a camel-case key with an aside word among its
// words (lastPriorSignIn, previousLogin), which keySegments keeps whole.
// It only marks entries as aside (see entry.aside): the field names read
// inside such objects stay as they were.
func camelAsideKey(raw string) bool {
	start := 0
	for i := 1; i <= len(raw); i++ {
		if i == len(raw) || raw[i] >= 'A' && raw[i] <= 'Z' && raw[i-1] >= 'a' && raw[i-1] <= 'z' {
			if asideWords[strings.ToLower(raw[start:i])] {
				return true
			}
			start = i
		}
	}
	return false
}

// qualifiedKeys returns the extra names a field is known by: the trailing
// joins of its path (parent segments plus its own), excluding the plain
// normalised key, which the caller records already.
func qualifiedKeys(path []string, raw string) []string {
	segs := append(append([]string{}, path...), keySegments(raw)...)
	own := normKey(raw)
	seen := map[string]bool{own: true}
	var out []string
	for j := 1; j <= maxQualify && j <= len(segs); j++ {
		if droppedContext(segs[:len(segs)-j]) {
			continue
		}
		k := strings.Join(segs[len(segs)-j:], "")
		if !seen[k] {
			seen[k] = true
			out = append(out, k)
		}
	}
	return out
}

// droppedContext reports whether the segments a shortened name leaves out
// include a context word.
func droppedContext(dropped []string) bool {
	for _, s := range dropped {
		if contextWords[s] {
			return true
		}
	}
	return false
}

// childPath is the path a nested object's keys are qualified with: the
// parent's path plus the key's own segments, trimmed to what qualification
// can use.
func childPath(path []string, raw string) []string {
	p := append(append([]string{}, path...), keySegments(raw)...)
	if len(p) > maxQualify {
		p = p[len(p)-maxQualify:]
	}
	return p
}

// embeddedJSON parses a string that holds a serialised object or list, the
// way SIEM exports carry entities, extended properties and authentication
// details; ok is false for anything else.
func embeddedJSON(v any) (any, bool) {
	s, ok := v.(string)
	if !ok || len(s) < 2 || len(s) > maxEmbeddedJSON {
		return nil, false
	}
	s = strings.TrimSpace(s)
	if !(strings.HasPrefix(s, "{") && strings.HasSuffix(s, "}") || strings.HasPrefix(s, "[") && strings.HasSuffix(s, "]")) {
		return nil, false
	}
	var out any
	if json.Unmarshal([]byte(s), &out) != nil {
		return nil, false
	}
	switch out.(type) {
	case map[string]any, []any:
		return out, true
	}
	return nil, false
}
