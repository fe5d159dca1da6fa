package triage

import (
	"encoding/json"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Payloads come from many vendors that disagree on field names, casing and
// nesting ("sender" vs "From" vs "data.sender.address"). Rather than modelling
// each vendor, the analyzers look fields up by normalised name at any depth,
// preferring shallower matches. A doc is a flattened, bounded index of a
// payload built once per analysis so repeated lookups stay cheap.

const (
	maxDocEntries = 20000
	maxDocText    = 256 << 10
)

// entry is one key/value pair somewhere in the payload.
type entry struct {
	key   string // normalised with normKey
	val   any
	depth int
	// scope is the normalised path of the objects holding the entry, its
	// own key last ("process.parent.commandline"), so that a reader can
	// tell a parent's field from the process's own.
	scope string
	// aside is set when the entry describes another time or the
	// subject's baseline (see asideKey and camelAsideKey): a previous
	// sign-in's note.
	aside bool
}

type doc struct {
	entries []entry
	text    string // lowercased, whitespace-collapsed string leaves
	compact string // text as normKey folds it; see compactText
	folded  bool   // compact has been computed
	own     string // text without aside entries; see ownText
	ownDone bool   // own has been computed
	// raw is the payload the entries were read from, for readers that
	// need one object's fields together (see sideloadedLibrary).
	raw map[string]any
}

// compactText is the doc's text with everything but letters and digits
// dropped (normKey), computed once however many readers ask for it.
func (d *doc) compactText() string {
	if !d.folded {
		d.compact, d.folded = normKey(d.text), true
	}
	return d.compact
}

// ownText is the doc's text (see doc.text) without the entries that
// describe another time or the subject's baseline (see entry.aside):
// what the alert says about its own event.
func (d *doc) ownText() string {
	if !d.ownDone {
		var b strings.Builder
		for _, e := range d.entries {
			if !e.aside {
				appendLeafText(&b, e.val)
			}
		}
		d.own, d.ownDone = b.String(), true
	}
	return d.own
}

// appendLeafText writes v's text to b as doc.text holds it: a string, or
// the strings of a list, each lowercased, collapsed and on a line of its
// own, up to maxDocText.
func appendLeafText(b *strings.Builder, v any) {
	if s, ok := v.(string); ok && b.Len() < maxDocText {
		appendCollapsed(b, strings.ToLower(s))
		b.WriteByte('\n')
	}
	if arr, ok := v.([]any); ok {
		for _, x := range arr {
			if s, ok := x.(string); ok && b.Len() < maxDocText {
				appendCollapsed(b, strings.ToLower(s))
				b.WriteByte('\n')
			}
		}
	}
}

// newDoc indexes raw breadth-first with sorted keys so that lookups are
// deterministic and shallow fields win over nested ones. Keys whose
// normalised name is in skip are recorded but not descended into, which lets
// the login analyzer keep "previous login" details apart from the current one.
func newDoc(raw map[string]any, skip ...string) *doc {
	d := &doc{raw: raw}
	skipSet := setOf(skip...)
	type node struct {
		val   any
		depth int
		path  []string
		scope string
		aside bool
		// elsewhere marks entries as aside (entry.aside) without
		// changing how the fields are named: camel-case aside keys.
		elsewhere bool
	}
	queue := []node{{raw, 0, nil, "", false, false}}
	for len(queue) > 0 && len(d.entries) < maxDocEntries {
		n := queue[0]
		queue = queue[1:]
		if n.depth >= maxWalkDepth {
			continue
		}
		switch t := n.val.(type) {
		case map[string]any:
			for _, k := range sortedKeys(t) {
				nk := normKey(k)
				scope := n.scope + "." + nk
				// n.elsewhere holds whenever n.aside does.
				aside := n.elsewhere || asideKey(k) || camelAsideKey(k)
				if !n.aside {
					d.entries = append(d.entries, entry{key: nk, val: t[k], depth: n.depth + 1, scope: scope, aside: aside})
				}
				for _, q := range qualifiedKeys(n.path, k) {
					d.entries = append(d.entries, entry{key: q, val: t[k], depth: n.depth + 1, scope: scope, aside: aside})
				}
				if skipSet[nk] {
					continue
				}
				child := t[k]
				if parsed, ok := embeddedJSON(child); ok {
					child = parsed
				}
				queue = append(queue, node{child, n.depth + 1, childPath(n.path, k), scope, n.aside || asideKey(k), aside})
			}
			if name, val, ok := namedParameter(t); ok {
				d.entries = append(d.entries, entry{key: name, val: val, depth: n.depth + 1, scope: n.scope + "." + name})
			}
			d.entries = append(d.entries, indicatorEntries(t, n.depth+1)...)
		case map[string]string:
			for _, k := range sortedKeys(t) {
				d.entries = append(d.entries, entry{key: normKey(k), val: t[k], depth: n.depth + 1, scope: n.scope + "." + normKey(k)})
			}
		case []any:
			for _, x := range t {
				queue = append(queue, node{x, n.depth + 1, n.path, n.scope, n.aside, n.elsewhere})
			}
		case []map[string]any:
			for _, x := range t {
				queue = append(queue, node{x, n.depth + 1, n.path, n.scope, n.aside, n.elsewhere})
			}
		}
	}
	var b strings.Builder
	for _, e := range d.entries {
		appendLeafText(&b, e.val)
	}
	d.text = b.String()
	return d
}

// appendCollapsed writes s with whitespace runs folded to one space, so that
// phrase matching is immune to "vssadmin   delete\tshadows" style padding.
func appendCollapsed(b *strings.Builder, s string) {
	space := false
	for _, f := range strings.Fields(s) {
		if space {
			b.WriteByte(' ')
		}
		b.WriteString(f)
		space = true
	}
}

// values returns the values stored under any of names, shallowest first.
func (d *doc) values(names ...string) []any {
	want := setOf(names...)
	var out []any
	for _, e := range d.entries {
		if want[e.key] {
			out = append(out, e.val)
		}
	}
	return out
}

// has reports whether any of names is present with a non-null value.
func (d *doc) has(names ...string) bool {
	for _, v := range d.values(names...) {
		if v != nil {
			return true
		}
	}
	return false
}

// strs returns every string leaf under any of names, in lookup order.
func (d *doc) strs(names ...string) []string {
	var out []string
	for _, v := range d.values(names...) {
		out = appendLeafStrings(out, v, 0)
	}
	return out
}

// scalarStrs is strs without descending into objects: only strings and
// lists of strings stored directly under names. A SIEM's "result" object
// holding the whole event is not a scan result.
func (d *doc) scalarStrs(names ...string) []string {
	var out []string
	for _, v := range d.values(names...) {
		out = appendScalars(out, v)
	}
	return out
}

// productScalarStrs is scalarStrs without the fields a user filled (see
// userSupplied): what the product itself states.
func (d *doc) productScalarStrs(names ...string) []string {
	want := setOf(names...)
	var out []string
	for _, e := range d.entries {
		if want[e.key] && !userSupplied(e.scope) {
			out = appendScalars(out, e.val)
		}
	}
	return out
}

// appendScalars appends v when it is a string, or its strings when it is
// a list.
func appendScalars(out []string, v any) []string {
	switch t := v.(type) {
	case string:
		out = append(out, t)
	case []any:
		for _, x := range t {
			if s, ok := x.(string); ok {
				out = append(out, s)
			}
		}
	}
	return out
}

// str returns the first non-empty string leaf under any of names.
func (d *doc) str(names ...string) string {
	for _, s := range d.strs(names...) {
		if s = strings.TrimSpace(s); s != "" {
			return s
		}
	}
	return ""
}

// firstOf is str with names in priority order: the value of the first
// name present, where str takes whichever named field comes first in the
// payload. A user object ({"ipAddress", "userPrincipalName"}) under
// "user" is not the principal name beside or below it.
func (d *doc) firstOf(names ...string) string {
	for _, n := range names {
		if s := d.str(n); s != "" {
			return s
		}
	}
	return ""
}

// scalarStr is str without descending into objects: a key such as
// "parent" or "signature" may hold a whole object whose first leaf is not
// the name sought.
func (d *doc) scalarStr(names ...string) string {
	for _, s := range d.scalarStrs(names...) {
		if s = strings.TrimSpace(s); s != "" {
			return s
		}
	}
	return ""
}

// boolean returns the first value under names that reads as a boolean.
func (d *doc) boolean(names ...string) (value, found bool) {
	for _, v := range d.values(names...) {
		if b, ok := asBool(v); ok {
			return b, true
		}
	}
	return false, false
}

// number returns the first value under names that reads as a number. A list
// counts as its length, since vendors report e.g. failed attempts either as a
// count or as the list of attempts.
func (d *doc) number(names ...string) (float64, bool) {
	for _, v := range d.values(names...) {
		if f, ok := asNumber(v); ok {
			return f, true
		}
		if arr, ok := v.([]any); ok {
			return float64(len(arr)), true
		}
	}
	return 0, false
}

// maps returns the objects stored under names, including objects inside lists.
func (d *doc) maps(names ...string) []map[string]any {
	var out []map[string]any
	for _, v := range d.values(names...) {
		switch t := v.(type) {
		case map[string]any:
			out = append(out, t)
		case []any:
			for _, x := range t {
				if m, ok := x.(map[string]any); ok {
					out = append(out, m)
				}
			}
		}
	}
	return out
}

func appendLeafStrings(out []string, v any, depth int) []string {
	if depth > maxWalkDepth || len(out) > maxDocEntries {
		return out
	}
	switch t := v.(type) {
	case string:
		out = append(out, t)
	case []any:
		for _, x := range t {
			out = appendLeafStrings(out, x, depth+1)
		}
	case []string:
		out = append(out, t...)
	case map[string]string:
		for _, k := range sortedKeys(t) {
			out = append(out, t[k])
		}
	case map[string]any:
		for _, k := range sortedKeys(t) {
			out = appendLeafStrings(out, t[k], depth+1)
		}
	}
	return out
}

func asBool(v any) (bool, bool) {
	switch t := v.(type) {
	case bool:
		return t, true
	case string:
		switch strings.ToLower(strings.TrimSpace(t)) {
		case "true", "yes", "y", "1":
			return true, true
		case "false", "no", "n", "0":
			return false, true
		}
	case float64:
		return t != 0, true
	case int:
		return t != 0, true
	}
	return false, false
}

func asNumber(v any) (float64, bool) {
	var f float64
	switch t := v.(type) {
	case float64:
		f = t
	case float32:
		f = float64(t)
	case int:
		f = float64(t)
	case int64:
		f = float64(t)
	case json.Number:
		x, err := t.Float64()
		if err != nil {
			return 0, false
		}
		f = x
	case string:
		x, err := strconv.ParseFloat(strings.TrimSpace(t), 64)
		if err != nil {
			return 0, false
		}
		f = x
	default:
		return 0, false
	}
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return 0, false
	}
	return f, true
}

// containsTerm reports whether term occurs in text (both lowercase) as a
// whole word. A trailing '*' makes it a prefix match ("ransom*" also matches
// "ransomware"). Word matching matters for short family names: "conti" must
// not fire on "continue".
func containsTerm(text, term string) bool {
	prefix := strings.HasSuffix(term, "*")
	term = strings.TrimSuffix(term, "*")
	if term == "" {
		return false
	}
	for off := 0; off < len(text); {
		i := strings.Index(text[off:], term)
		if i < 0 {
			return false
		}
		start := off + i
		end := start + len(term)
		okStart := start == 0 || !isAlnum(text[start-1])
		okEnd := prefix || end == len(text) || !isAlnum(text[end])
		if okStart && okEnd {
			return true
		}
		off = start + 1
	}
	return false
}

// matchedTerms returns the terms (in list order) that occur in text.
func matchedTerms(text string, terms []string) []string {
	var out []string
	for _, t := range terms {
		if containsTerm(text, t) {
			out = append(out, strings.TrimSuffix(t, "*"))
		}
	}
	return out
}

// lowerJoin lowercases and joins strings for keyword matching, stopping at
// maxDocText so that a multi-megabyte body cannot dominate analysis time.
func lowerJoin(ss []string) string {
	var b strings.Builder
	for _, s := range ss {
		if b.Len()+len(s) > maxDocText {
			s = s[:max(0, maxDocText-b.Len())]
		}
		b.WriteString(s)
		b.WriteByte('\n')
		if b.Len() >= maxDocText {
			break
		}
	}
	return strings.ToLower(b.String())
}

// uniqueSorted returns the distinct non-empty values of in, sorted.
func uniqueSorted(in []string) []string {
	seen := make(map[string]bool, len(in))
	out := make([]string, 0, len(in))
	for _, s := range in {
		if s != "" && !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	sort.Strings(out)
	return out
}

// truncate prepares payload text for the reasoning: it is attacker
// controlled, so control characters are blanked (no forged extra lines in
// reports) and the length is capped without splitting a UTF-8 sequence.
func truncate(s string, n int) string {
	s = strings.Map(func(r rune) rune {
		if unicode.IsControl(r) {
			return ' '
		}
		return r
	}, s)
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "..."
}

// namedParameter reads a {"name": ..., "value": ...} pair, the way Google
// Workspace audit events, Splunk and many webhooks list their details, and
// its capitalised and key-named forms: Microsoft 365's audit log lists a
// cmdlet's parameters as {"Name": "MoveToFolder", "Value": "RSS Feeds"},
// Google's nested records sit in multiMessageValue,
// and Entra ID risk detections their details as {"Key": ..., "Value": ...}.
// The detail is then found under its own name like any other field.
func namedParameter(m map[string]any) (string, any, bool) {
	if len(m) > 4 {
		return "", nil, false
	}
	name := ""
	for _, k := range []string{"name", "Name", "key", "Key"} {
		if s, ok := m[k].(string); ok && s != "" {
			name = s
			break
		}
	}
	if name == "" {
		return "", nil, false
	}
	for _, k := range []string{"value", "Value", "boolValue", "intValue", "multiValue", "multiStrValue", "multiMessageValue"} {
		v, ok := m[k]
		if !ok {
			continue
		}
		if k == "multiMessageValue" {
			// Google's nested records (a DLP rule's matched detectors)
			// stay records; their own parameters are read where they are.
			return normKey(name), v, true
		}
		if list, ok := v.([]any); ok {
			parts := make([]string, 0, len(list))
			for _, x := range list {
				parts = append(parts, fmt.Sprint(x))
			}
			v = strings.Join(parts, " ")
		}
		return normKey(name), v, true
	}
	return "", nil, false
}
