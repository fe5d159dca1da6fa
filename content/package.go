// Package content reads, checks, signs and builds content packages: a
// manifest and a list of playbooks, hunts, knowledge articles and hunt
// library queries that teams share between Vigil installations.
//
// Everything here is free of the database; the API installs what this
// package has checked.
package content

import (
	"encoding/json"

	"github.com/vigil-soc/vigil/hunt"
	"github.com/vigil-soc/vigil/hunt/datasource"
	"github.com/vigil-soc/vigil/store"
)

// Limits on a package. A real package is a few hundred kilobytes; the
// limits only keep a hostile one from costing memory or time.
const (
	// MaxSize is the largest package accepted, in bytes.
	MaxSize = 5 << 20
	// MaxItems caps the contents list.
	MaxItems = 500
	// MaxDepth caps how deeply JSON or YAML values nest.
	MaxDepth = 32
	// MaxNameLength bounds package, item and query names.
	MaxNameLength = 100
	// MaxTitleLength bounds knowledge titles and query titles.
	MaxTitleLength = 200
	// MaxTextLength bounds descriptions and similar free text.
	MaxTextLength = 4000
	// MaxContentLength bounds one knowledge article or query text.
	MaxContentLength = 256 << 10
	// MaxTags caps tag lists; MaxTagLength each tag.
	MaxTags      = 50
	MaxTagLength = 64
)

// Item types, as the contents' type field names them.
const (
	TypePlaybook  = store.ItemPlaybook
	TypeHunt      = store.ItemHunt
	TypeKnowledge = store.ItemKnowledge
	TypeQuery     = store.ItemQuery
)

// QueryTypes are the query type identifiers a query item may name: the
// data source kinds that run queries.
var QueryTypes = datasource.Kinds

// Package is a content package: its manifest, its items and, optionally,
// a signature over both.
type Package struct {
	Manifest  Manifest   `json:"manifest"`
	Contents  []Item     `json:"contents"`
	Signature *Signature `json:"signature,omitempty"`
}

// Manifest describes a package.
type Manifest struct {
	Name          string   `json:"name" yaml:"name"`
	Version       string   `json:"version" yaml:"version"`
	Description   string   `json:"description" yaml:"description"`
	Author        string   `json:"author" yaml:"author"`
	License       string   `json:"license,omitempty" yaml:"license,omitempty"`
	Tags          []string `json:"tags,omitempty" yaml:"tags,omitempty"`
	Compatibility string   `json:"compatibility,omitempty" yaml:"compatibility,omitempty"`
}

// Item is one content item. Type says which fields it uses: a playbook or
// hunt has Name and Data, a knowledge article Title and Content (and
// optionally Tags and IncidentTypes), a query Name, QueryType and Query
// with the library's own fields.
type Item struct {
	Type string `json:"type"`
	Name string `json:"name,omitempty"`
	// Data is a playbook document or a hunt definition.
	Data json.RawMessage `json:"data,omitempty"`

	Title         string   `json:"title,omitempty"`
	Content       string   `json:"content,omitempty"`
	Tags          []string `json:"tags,omitempty"`
	IncidentTypes []string `json:"incident_types,omitempty"`

	QueryType        string             `json:"query_type,omitempty"`
	Query            string             `json:"query,omitempty"`
	Category         string             `json:"category,omitempty"`
	Description      string             `json:"description,omitempty"`
	Parameters       []store.QueryParam `json:"parameters,omitempty"`
	Templates        map[string]string  `json:"templates,omitempty"`
	ExpectedBaseline float64            `json:"expected_baseline,omitempty"`
	Severity         string             `json:"severity,omitempty"`
	MitreTechniques  []string           `json:"mitre_techniques,omitempty"`
	KeyFields        []string           `json:"key_fields,omitempty"`
}

// Key is the name an item is known by: a knowledge article's title, every
// other item's name.
func (it Item) Key() string {
	if it.Type == TypeKnowledge {
		return it.Title
	}
	return it.Name
}

// allowedFields lists the fields each item type may carry; anything else
// is an error, so a misspelt field is never silently dropped.
var allowedFields = map[string][]string{
	TypePlaybook:  {"type", "name", "data"},
	TypeHunt:      {"type", "name", "data"},
	TypeKnowledge: {"type", "title", "content", "tags", "incident_types"},
	TypeQuery: {"type", "name", "title", "query_type", "query", "category", "description", "parameters", "templates",
		"expected_baseline", "severity", "mitre_techniques", "key_fields"},
}

// manifestFields lists the manifest's fields.
var manifestFields = []string{"name", "version", "description", "author", "license", "tags", "compatibility"}

// HuntData is the data of a hunt item: a hunt definition as the hunt API
// takes it.
type HuntData = hunt.Definition
