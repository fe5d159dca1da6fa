package hunt

import (
	"fmt"

	"github.com/vigil-soc/vigil/hunt/datasource"
	"github.com/vigil-soc/vigil/hunt/library"
	"github.com/vigil-soc/vigil/store"
)

// DefaultQueryTimeoutSecs bounds a query whose hunt sets no timeout_secs.
const DefaultQueryTimeoutSecs = 300

// PlannedQuery is one query of a run, resolved to its text and source.
type PlannedQuery struct {
	Index         int            `json:"index"`
	Name          string         `json:"name"`
	QueryType     string         `json:"query_type"`
	DataSource    string         `json:"data_source"`
	Query         string         `json:"query"`
	Params        map[string]any `json:"params,omitempty"`
	Keys          []string       `json:"keys,omitempty"`
	TimeoutSecs   int            `json:"timeout_secs"`
	Baseline      float64        `json:"expected_baseline"`
	Severity      string         `json:"severity"`
	SeverityField string         `json:"severity_field,omitempty"`
	Mitre         []string       `json:"mitre_techniques,omitempty"`
}

// FieldError names the request field that is wrong.
type FieldError struct{ Field, Message string }

func (e *FieldError) Error() string { return e.Field + ": " + e.Message }

// Lookup finds a library query by id: the built-in library's library.Get,
// or one that also knows queries installed by content packages.
type Lookup func(id string) (library.Query, bool)

// PlanWith resolves a hunt's queries: library queries become the template for
// their query type with bound parameters; each names the data source it
// runs on (its own, else the hunt's first). kindOf answers the kind of a
// data source name ("" when it does not exist).
func PlanWith(h *store.Hunt, kindOf func(name string) string, lookup Lookup) ([]PlannedQuery, error) {
	var out []PlannedQuery
	for i, q := range h.Queries.V {
		field := fmt.Sprintf("queries[%d]", i)
		p := PlannedQuery{Index: i, Name: q.Name, QueryType: q.QueryType, DataSource: q.DataSource, Query: q.Query,
			Params: q.Parameters, TimeoutSecs: q.TimeoutSecs, Baseline: q.ExpectedBaseline, Severity: q.Severity,
			SeverityField: q.SeverityField, Mitre: h.MitreTechniques.V}
		if p.DataSource == "" && len(h.DataSources.V) > 0 {
			p.DataSource = h.DataSources.V[0]
		}
		if p.DataSource == "" {
			return nil, &FieldError{field + ".data_source", "no data source: name one here or in data_sources"}
		}
		kind := kindOf(p.DataSource)
		if kind == "" {
			return nil, &FieldError{field + ".data_source", fmt.Sprintf("data source %q does not exist", p.DataSource)}
		}
		if p.QueryType == "" {
			p.QueryType = kind
		}
		if p.QueryType != kind {
			return nil, &FieldError{field + ".query_type", fmt.Sprintf("data source %q (%s) cannot run query type %q", p.DataSource, kind, p.QueryType)}
		}
		if q.LibraryID != "" {
			lq, ok := lookup(q.LibraryID)
			if !ok {
				return nil, &FieldError{field + ".library_id", fmt.Sprintf("no library query %q", q.LibraryID)}
			}
			params, err := lq.Bind(q.Parameters)
			if err != nil {
				return nil, &FieldError{field + ".parameters", err.Error()}
			}
			switch kind {
			case datasource.KindSQL:
				p.Query = lq.SQL
			case datasource.KindSIEMSearch:
				p.Query = lq.RenderSPL(params)
			default:
				return nil, &FieldError{field + ".query_type", fmt.Sprintf("library query %s has templates for sql and siem_search, not %s", lq.ID, kind)}
			}
			p.Params, p.Keys, p.Mitre = params, lq.Keys, lq.MitreTechniques
			if p.Name == "" {
				p.Name = lq.ID
			}
			if p.Severity == "" {
				p.Severity = lq.Severity
			}
			if q.ExpectedBaseline == 0 {
				p.Baseline = lq.ExpectedBaseline
			}
		}
		if p.Query == "" {
			return nil, &FieldError{field + ".query", "give a query or a library_id"}
		}
		if p.Name == "" {
			p.Name = fmt.Sprintf("query %d", i+1)
		}
		if p.Severity == "" {
			p.Severity = "medium"
		}
		if p.TimeoutSecs <= 0 {
			p.TimeoutSecs = DefaultQueryTimeoutSecs
		}
		out = append(out, p)
	}
	if len(out) == 0 {
		return nil, &FieldError{"queries", "a hunt needs at least one query"}
	}
	return out, nil
}
