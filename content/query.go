package content

import (
	"fmt"
	"github.com/vigil-soc/vigil/hunt"
	"regexp"
	"slices"
	"strings"

	"github.com/vigil-soc/vigil/hunt/library"
)

// queryName is what a library query may be called: hunts name it as
// their library_id.
var queryName = regexp.MustCompile(`^[a-z0-9][a-z0-9_.-]{0,99}$`)

// Severities a query may report findings at.
var Severities = hunt.Severities

// queryItem checks a query item and fills what it leaves empty.
func (v *validator) queryItem(i int, it *Item) {
	if !queryName.MatchString(it.Name) {
		v.ps.add(i, "name", "must be 1 to 100 lower-case letters, digits, dots, dashes or underscores, as hunts name it in library_id")
	}
	if !slices.Contains(QueryTypes, it.QueryType) {
		v.ps.add(i, "query_type", "unknown query type %q; use one of %s", it.QueryType, strings.Join(QueryTypes, ", "))
	}
	if strings.TrimSpace(it.Query) == "" {
		v.ps.add(i, "query", "is required and must not be empty")
	}
	v.text(i, "query", it.Query, MaxContentLength)
	v.text(i, "title", it.Title, MaxTitleLength)
	v.text(i, "description", it.Description, MaxTextLength)
	if it.Category != "" && !slices.Contains(library.Categories, it.Category) {
		v.ps.add(i, "category", "unknown category %q; use one of %s", it.Category, strings.Join(library.Categories, ", "))
	}
	if it.Severity != "" && !slices.Contains(Severities, it.Severity) {
		v.ps.add(i, "severity", "must be one of %s", strings.Join(Severities, ", "))
	}
	if it.ExpectedBaseline < 0 {
		v.ps.add(i, "expected_baseline", "must not be negative")
	}
	for _, lang := range sortedKeys(it.Templates) {
		if !slices.Contains(QueryTypes, lang) {
			v.ps.add(i, "templates."+lang, "unknown query type; templates are keyed by %s", strings.Join(QueryTypes, ", "))
		}
		v.text(i, "templates."+lang, it.Templates[lang], MaxContentLength)
	}
	v.tags(i, "mitre_techniques", it.MitreTechniques)
	v.tags(i, "key_fields", it.KeyFields)
	seen := map[string]bool{}
	for j, p := range it.Parameters {
		field := fmt.Sprintf("parameters[%d]", j)
		switch {
		case !queryName.MatchString(p.Name):
			v.ps.add(i, field+".name", "must be a lower-case identifier")
		case seen[p.Name]:
			v.ps.add(i, field+".name", "parameter %q is declared twice", p.Name)
		}
		seen[p.Name] = true
		if p.Type != "int" && p.Type != "string" {
			v.ps.add(i, field+".type", "must be int or string")
		}
	}
	if len(it.Parameters) > MaxTags {
		v.ps.add(i, "parameters", "has %d entries; at most %d are allowed", len(it.Parameters), MaxTags)
	}
}
