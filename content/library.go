package content

import (
	"context"

	"github.com/vigil-soc/vigil/hunt"
	"github.com/vigil-soc/vigil/hunt/library"
	"github.com/vigil-soc/vigil/store"
)

// LibraryEntry is a hunt library query as listed: the library's own
// fields and, for one a content package installed, the package's name.
type LibraryEntry struct {
	library.Query
	Package string `json:"package,omitempty"`
	// QueryType and Query are the entry's main template, as a query item
	// names them; Templates holds the others by query type.
	QueryType string            `json:"query_type,omitempty"`
	Templates map[string]string `json:"templates,omitempty"`
}

// BuiltinLibrary lists the built-in queries.
func BuiltinLibrary() []LibraryEntry {
	all := library.All()
	out := make([]LibraryEntry, len(all))
	for i, q := range all {
		out[i] = LibraryEntry{Query: q}
	}
	return out
}

// PackageLibrary lists the queries content packages installed.
func PackageLibrary(ctx context.Context, st *store.Store) ([]LibraryEntry, error) {
	rows, err := st.ListPackageQueries(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]LibraryEntry, len(rows))
	for i := range rows {
		out[i] = LibraryEntry{Query: libraryQuery(&rows[i]), Package: rows[i].PackageName,
			QueryType: rows[i].QueryType, Templates: rows[i].Templates.V}
	}
	return out, nil
}

// QueryLookup finds library queries for hunts: built in first, then those
// content packages installed. A package query runs through library_id on
// the query types the library has templates for (sql and siem_search).
func QueryLookup(ctx context.Context, st *store.Store) hunt.Lookup {
	return func(id string) (library.Query, bool) {
		if q, ok := library.Get(id); ok {
			return q, true
		}
		pq, err := st.GetPackageQuery(ctx, id)
		if err != nil {
			return library.Query{}, false
		}
		return libraryQuery(pq), true
	}
}

func libraryQuery(pq *store.PackageQuery) library.Query {
	texts := map[string]string{}
	for k, v := range pq.Templates.V {
		texts[k] = v
	}
	texts[pq.QueryType] = pq.Query
	params := make([]library.Param, len(pq.Parameters.V))
	for i, p := range pq.Parameters.V {
		params[i] = library.Param{Name: p.Name, Type: p.Type, Default: p.Default, Description: p.Description}
	}
	title := pq.Title
	if title == "" {
		title = pq.Name
	}
	return library.Query{ID: pq.Name, Name: title, Category: pq.Category, Description: pq.Description,
		MitreTechniques: pq.MitreTechniques.V, Severity: pq.Severity, ExpectedBaseline: pq.ExpectedBaseline,
		Params: params, Keys: pq.KeyFields.V, SQL: texts["sql"], SPL: texts["siem_search"]}
}
