package content

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/vigil-soc/vigil/playbook"
)

// packageName is what a package may be called: it appears in URLs and
// file names.
var packageName = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$`)

// Options says what validation checks beyond the package itself.
type Options struct {
	// ServiceVersion is the running Vigil version compatibility is
	// checked against.
	ServiceVersion string
	// RequireSignature refuses unsigned packages and those whose signature
	// fails; a signature present is always checked.
	RequireSignature bool
	// TrustedKeys are the publisher keys signatures are accepted from.
	TrustedKeys []TrustedKey
	// KnownQuery reports whether a library query id exists here besides
	// the package's own query items; nil knows only the built-in library.
	KnownQuery func(id string) bool
	// Sources locate each item in the files it was built from, by index;
	// nil for a package that arrived as JSON.
	Sources []Source
	// Manifest locates the manifest's fields, for a package folder.
	Manifest *Source
}

// Source says where an item came from in a package folder.
type Source struct {
	File string
	// Playbook is the YAML text of a playbook item, validated as written
	// so its problems carry the file's lines.
	Playbook []byte
	// Line finds the line of a field path inside the item.
	Line func(field string) int
}

// Report is the outcome of validating a package, in the SPEC's shape.
type Report struct {
	Valid        bool      `json:"valid"`
	Warnings     []string  `json:"warnings"`
	Errors       []Problem `json:"errors"`
	ContentCount int       `json:"content_count"`
	SignedBy     string    `json:"signed_by,omitempty"`
	// Incompatible is set when the package needs another Vigil version.
	Incompatible *Incompatible `json:"-"`
	// Ready holds the items that can be installed, in canonical form.
	Ready []Ready `json:"-"`
	// PackageError is set when the manifest or signature is unusable, so
	// nothing of the package may be installed.
	PackageError bool `json:"-"`
}

// Ready is a valid item in canonical form with its hash.
type Ready struct {
	Index    int
	Item     Item
	Hash     string
	Playbook *playbook.Playbook
	Hunt     *HuntData
}

// Check decodes and validates a package. The error is one of Decode's:
// the text is not a package at all.
func Check(text []byte, opts Options) (*Package, Report, error) {
	p, ps, err := Decode(text)
	if err != nil {
		return nil, Report{}, err
	}
	return p, Validate(p, ps, opts), nil
}

// Validate checks a decoded package; ps holds the decoding's findings
// (nil when there are none).
func Validate(p *Package, ps *problems, opts Options) Report {
	if ps == nil {
		ps = &problems{}
	}
	rep := Report{ContentCount: len(p.Contents), Warnings: []string{}}
	v := &validator{p: p, ps: ps, opts: opts, rep: &rep}
	v.manifest()
	v.signature()
	rep.PackageError = hasPackageProblem(ps.list)
	if len(p.Contents) == 0 {
		rep.Warnings = append(rep.Warnings, "package has no contents")
	}
	v.items()
	rep.Errors = ps.sorted()
	v.locate(rep.Errors)
	rep.Valid = len(rep.Errors) == 0
	return rep
}

func hasPackageProblem(list []Problem) bool {
	return slices.ContainsFunc(list, func(p Problem) bool { return p.Index == nil })
}

type validator struct {
	p    *Package
	ps   *problems
	opts Options
	rep  *Report
	// queries are the names of the package's own query items.
	queries map[string]bool
}

func (v *validator) warn(format string, args ...any) {
	v.rep.Warnings = append(v.rep.Warnings, fmt.Sprintf(format, args...))
}

func (v *validator) manifest() {
	m := v.p.Manifest
	switch {
	case m.Name == "":
		v.ps.add(-1, "manifest.name", "is required")
	case !packageName.MatchString(m.Name):
		v.ps.add(-1, "manifest.name", "must be 1 to %d letters, digits, dots, dashes or underscores, starting with a letter or digit", MaxNameLength)
	}
	if m.Version == "" {
		v.ps.add(-1, "manifest.version", "is required")
	} else if err := checkVersion(m.Version); err != nil {
		v.ps.add(-1, "manifest.version", "%v", err)
	}
	if m.Author == "" {
		v.warn("manifest has no author")
	}
	if m.Description == "" {
		v.warn("manifest has no description")
	}
	v.text(-1, "manifest.description", m.Description, MaxTextLength)
	v.text(-1, "manifest.author", m.Author, MaxTitleLength)
	v.text(-1, "manifest.license", m.License, MaxNameLength)
	v.tags(-1, "manifest.tags", m.Tags)
	warning, incompatible, err := checkCompatibility(m.Compatibility, v.opts.ServiceVersion)
	switch {
	case err != nil:
		v.ps.add(-1, "manifest.compatibility", "%v", err)
	case incompatible != nil:
		v.rep.Incompatible = incompatible
		v.ps.add(-1, "manifest.compatibility", "%v", incompatible)
	case warning != "":
		v.warn("%s", warning)
	}
}

func (v *validator) signature() {
	if v.p.Signature == nil && !v.opts.RequireSignature {
		return
	}
	name, err := Verify(v.p, v.opts.TrustedKeys)
	switch {
	case err == nil:
		v.rep.SignedBy = name
	case v.opts.RequireSignature:
		v.ps.add(-1, "signature", "%v (signatures are required here)", err)
	case errors.Is(err, ErrUnknownKey):
		v.warn("%v; it is installed as unsigned", err)
	default:
		v.ps.add(-1, "signature", "%v", err)
	}
}

func (v *validator) items() {
	v.queries = map[string]bool{}
	for _, it := range v.p.Contents {
		if it.Type == TypeQuery && it.Name != "" {
			v.queries[it.Name] = true
		}
	}
	seen := map[string]int{}
	for i := range v.p.Contents {
		if v.ps.unread[i] {
			continue
		}
		it := v.p.Contents[i]
		key := it.Type + "\x00" + strings.ToLower(it.Key())
		if first, dup := seen[key]; dup && it.Key() != "" {
			v.ps.add(i, keyField(it.Type), "%s %q appears twice in the package (first at contents[%d])", it.Type, it.Key(), first)
			continue
		}
		seen[key] = i
		ready, ok := v.item(i, it)
		if ok && !v.ps.bad[i] {
			v.rep.Ready = append(v.rep.Ready, ready)
		}
	}
}

func keyField(t string) string {
	if t == TypeKnowledge {
		return "title"
	}
	return "name"
}

// item checks one item and returns its canonical form.
func (v *validator) item(i int, it Item) (Ready, bool) {
	limit := MaxNameLength
	if it.Type == TypeKnowledge || it.Type == TypeHunt {
		limit = MaxTitleLength
	}
	if strings.TrimSpace(it.Key()) == "" {
		v.ps.add(i, keyField(it.Type), "is required and must not be empty")
		return Ready{}, false
	}
	if !v.text(i, keyField(it.Type), it.Key(), limit) {
		return Ready{}, false
	}
	r := Ready{Index: i}
	// Mistakes found while decoding (unknown fields) are already noted;
	// the checks below still run so one report names them all.
	switch it.Type {
	case TypePlaybook:
		r.Playbook, it.Data = v.playbookItem(i, it)
	case TypeHunt:
		r.Hunt, it.Data = v.huntItem(i, it)
	case TypeKnowledge:
		v.knowledgeItem(i, it)
	case TypeQuery:
		v.queryItem(i, &it)
	}
	if v.ps.bad[i] {
		return Ready{}, false
	}
	r.Item = it
	r.Hash = Hash(it)
	return r, true
}

func (v *validator) playbookItem(i int, it Item) (*playbook.Playbook, json.RawMessage) {
	text := []byte(it.Data)
	var src *Source
	if i < len(v.opts.Sources) && v.opts.Sources[i].Playbook != nil {
		src = &v.opts.Sources[i]
		text = src.Playbook
	}
	if len(text) == 0 || string(text) == "null" {
		v.ps.add(i, "data", "is required: the playbook document with its steps")
		return nil, nil
	}
	res := playbook.Parse(text)
	for _, pr := range res.Errors {
		v.ps.add(i, "data", "%s", pr.Message)
		if src != nil {
			v.ps.list[len(v.ps.list)-1].Line = pr.Line
		}
	}
	if !res.Valid() {
		return nil, nil
	}
	for _, w := range res.Warnings {
		v.warn("contents[%d] (playbook %q): %s", i, it.Name, w.Message)
	}
	if res.Playbook.Name != it.Name {
		v.ps.add(i, "data.name", "is %q but the item is named %q; they must match", res.Playbook.Name, it.Name)
		return nil, nil
	}
	return res.Playbook, mustJSON(res.Playbook)
}

func (v *validator) knowledgeItem(i int, it Item) {
	if strings.TrimSpace(it.Content) == "" {
		v.warn("contents[%d] (knowledge %q) has no content", i, it.Title)
	}
	v.text(i, "content", it.Content, MaxContentLength)
	v.tags(i, "tags", it.Tags)
	v.tags(i, "incident_types", it.IncidentTypes)
}

// text checks s is valid UTF-8 of at most limit characters.
func (v *validator) text(i int, field, s string, limit int) bool {
	if !utf8.ValidString(s) {
		v.ps.add(i, field, "is not valid UTF-8")
		return false
	}
	if n := utf8.RuneCountInString(s); n > limit {
		v.ps.add(i, field, "is %d characters long; at most %d are allowed", n, limit)
		return false
	}
	return true
}

func (v *validator) tags(i int, field string, tags []string) {
	if len(tags) > MaxTags {
		v.ps.add(i, field, "has %d entries; at most %d are allowed", len(tags), MaxTags)
		return
	}
	for j, t := range tags {
		if strings.TrimSpace(t) == "" {
			v.ps.add(i, fmt.Sprintf("%s[%d]", field, j), "must not be empty")
		} else {
			v.text(i, fmt.Sprintf("%s[%d]", field, j), t, MaxTagLength)
		}
	}
}

// locate adds file and line to problems of items built from files.
func (v *validator) locate(list []Problem) {
	for k := range list {
		p := &list[k]
		var src Source
		switch {
		case p.Index == nil && v.opts.Manifest != nil:
			src = *v.opts.Manifest
		case p.Index != nil && *p.Index < len(v.opts.Sources):
			src = v.opts.Sources[*p.Index]
		default:
			continue
		}
		p.File = src.File
		if p.Line == 0 && src.Line != nil {
			p.Line = src.Line(p.Field)
		}
	}
}

// Hash is the hex SHA-256 of an item's canonical JSON: equal items hash
// equally however they were written.
func Hash(it Item) string {
	sum := sha256.Sum256(canonicalItem(it))
	return hex.EncodeToString(sum[:])
}

func canonicalItem(it Item) []byte {
	b, err := Canonical(&Package{Contents: []Item{it}})
	if err != nil {
		return mustJSON(it)
	}
	return b
}

func mustJSON(v any) json.RawMessage {
	b, err := json.Marshal(v)
	if err != nil {
		panic(fmt.Sprintf("encode %T: %v", v, err))
	}
	return b
}
