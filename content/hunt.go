package content

import (
	"encoding/json"
	"fmt"
	"slices"

	"github.com/vigil-soc/vigil/hunt/library"
	"github.com/vigil-soc/vigil/store"
)

// huntItem checks a hunt item's data with the hunt API's rules and
// returns it with every default filled in.
func (v *validator) huntItem(i int, it Item) (*HuntData, json.RawMessage) {
	if len(it.Data) == 0 || string(it.Data) == "null" {
		v.ps.add(i, "data", "is required: the hunt's hypothesis and queries")
		return nil, nil
	}
	var d HuntData
	if err := strictUnmarshal(it.Data, &d); err != nil {
		v.ps.add(i, "data", "%s", describeJSON(err))
		return nil, nil
	}
	d.FillDefaults()
	for _, p := range d.Problems() {
		v.ps.add(i, "data."+p.Field, "%s", p.Message)
	}
	v.text(i, "data.hypothesis", d.Hypothesis, MaxTextLength)
	v.tags(i, "data.tags", d.Tags)
	v.tags(i, "data.mitre_techniques", d.MitreTechniques)
	v.tags(i, "data.data_sources", d.DataSources)
	if len(d.Queries) == 0 {
		v.ps.add(i, "data.queries", "a hunt needs at least one query")
	}
	for j, q := range d.Queries {
		v.huntQuery(i, fmt.Sprintf("data.queries[%d]", j), q)
	}
	return &d, mustJSON(d)
}

func (v *validator) huntQuery(i int, field string, q store.HuntQuery) {
	if q.QueryType != "" && !slices.Contains(QueryTypes, q.QueryType) {
		v.ps.add(i, field+".query_type", "unknown query type %q; use one of %v", q.QueryType, QueryTypes)
	}
	switch {
	case q.LibraryID != "":
		if !v.knownQuery(q.LibraryID) {
			v.ps.add(i, field+".library_id", "no library query %q here or in this package", q.LibraryID)
		}
	case q.Query == "":
		v.ps.add(i, field+".query", "give a query or a library_id")
	default:
		v.text(i, field+".query", q.Query, MaxContentLength)
	}
	if q.TimeoutSecs < 0 {
		v.ps.add(i, field+".timeout_secs", "must not be negative")
	}
}

// knownQuery reports whether a library query id exists: built in, in this
// package or installed here.
func (v *validator) knownQuery(id string) bool {
	if _, ok := library.Get(id); ok || v.queries[id] {
		return true
	}
	return v.opts.KnownQuery != nil && v.opts.KnownQuery(id)
}
