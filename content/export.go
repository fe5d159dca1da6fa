package content

import (
	"context"
	"errors"
	"fmt"

	"github.com/vigil-soc/vigil/hunt"
	"github.com/vigil-soc/vigil/hunt/library"
	"github.com/vigil-soc/vigil/playbook"
	"github.com/vigil-soc/vigil/store"
)

// PlaybookItem is the stored playbook id as a package item: its newest
// version's document.
func PlaybookItem(ctx context.Context, st *store.Store, id string) (Item, error) {
	p, v, err := st.GetPlaybook(ctx, id)
	if err != nil {
		return Item{}, err
	}
	res := playbook.Parse([]byte(v.Content))
	if res.Playbook == nil {
		return Item{}, fmt.Errorf("stored playbook %s cannot be read", p.Name)
	}
	return Item{Type: TypePlaybook, Name: p.Name, Data: mustJSON(res.Playbook)}, nil
}

// HuntItem is the stored hunt id as a package item.
func HuntItem(ctx context.Context, st *store.Store, id string) (Item, error) {
	h, err := st.GetHunt(ctx, id)
	if err != nil {
		return Item{}, err
	}
	return huntToItem(h), nil
}

func huntToItem(h *store.Hunt) Item {
	return Item{Type: TypeHunt, Name: h.Name, Data: mustJSON(hunt.DefinitionOf(h))}
}

// KnowledgeItem is a stored article as a package item.
func KnowledgeItem(a *store.KnowledgeArticle) Item {
	return Item{Type: TypeKnowledge, Title: a.Title, Content: a.Content, Tags: a.Tags.V, IncidentTypes: a.IncidentTypes.V}
}

// QueryItem is an installed package query as a package item.
func QueryItem(q *store.PackageQuery) Item {
	return Item{Type: TypeQuery, Name: q.Name, Title: q.Title, QueryType: q.QueryType, Query: q.Query, Category: q.Category,
		Description: q.Description, Parameters: q.Parameters.V, Templates: q.Templates.V, ExpectedBaseline: q.ExpectedBaseline,
		Severity: q.Severity, MitreTechniques: q.MitreTechniques.V, KeyFields: q.KeyFields.V}
}

// LibraryItem is a built-in library query as a package item: its SQL
// template is the query, its SPL template the siem_search template.
func LibraryItem(q library.Query) Item {
	params := make([]store.QueryParam, len(q.Params))
	for i, p := range q.Params {
		params[i] = store.QueryParam{Name: p.Name, Type: p.Type, Default: p.Default, Description: p.Description}
	}
	return Item{Type: TypeQuery, Name: q.ID, Title: q.Name, QueryType: "sql", Query: q.SQL, Category: q.Category,
		Description: q.Description, Parameters: params, Templates: map[string]string{"siem_search": q.SPL},
		ExpectedBaseline: q.ExpectedBaseline, Severity: q.Severity, MitreTechniques: q.MitreTechniques, KeyFields: q.Keys}
}

// currentItem reads what an installed item is now, for telling a local
// change from an untouched item.
func currentItem(ctx context.Context, st *store.Store, itemType, targetID string) (Item, error) {
	switch itemType {
	case TypePlaybook:
		return PlaybookItem(ctx, st, targetID)
	case TypeHunt:
		return HuntItem(ctx, st, targetID)
	case TypeKnowledge:
		a, err := st.GetKnowledge(ctx, targetID)
		if err != nil {
			return Item{}, err
		}
		return KnowledgeItem(a), nil
	case TypeQuery:
		if lq, ok := library.Get(targetID); ok {
			return LibraryItem(lq), nil
		}
		q, err := st.GetPackageQuery(ctx, targetID)
		if err != nil {
			return Item{}, err
		}
		return QueryItem(q), nil
	}
	return Item{}, errors.New("unknown item type " + itemType)
}

// ExportOne builds a package holding one item under the given manifest.
func ExportOne(m Manifest, it Item) *Package {
	return &Package{Manifest: m, Contents: []Item{it}}
}
