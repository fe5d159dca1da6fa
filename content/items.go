package content

import (
	"context"
	"encoding/json"
	"errors"

	"github.com/vigil-soc/vigil/hunt/library"
	"github.com/vigil-soc/vigil/playbook"
	"github.com/vigil-soc/vigil/store"
)

// findItem looks an item up by type and name: the id of the existing one,
// if any.
func findItem(ctx context.Context, st *store.Store, itemType, name string) (string, bool, error) {
	var id string
	var err error
	switch itemType {
	case TypePlaybook:
		var p *store.Playbook
		if p, err = st.PlaybookByName(ctx, name); err == nil {
			id = p.ID
		}
	case TypeHunt:
		var h *store.Hunt
		if h, err = st.HuntByName(ctx, name); err == nil {
			id = h.ID
		}
	case TypeKnowledge:
		var a *store.KnowledgeArticle
		if a, err = st.KnowledgeByTitle(ctx, name); err == nil {
			id = a.ID
		}
	case TypeQuery:
		if _, ok := library.Get(name); ok {
			return name, true, nil
		}
		var q *store.PackageQuery
		if q, err = st.GetPackageQuery(ctx, name); err == nil {
			id = q.Name
		}
	}
	if errors.Is(err, store.ErrNotFound) {
		return "", false, nil
	}
	return id, err == nil, err
}

// withName is the item under another name (a playbook's document renamed
// with it).
func withName(it Item, name string) (Item, error) {
	if it.Type == TypeKnowledge {
		it.Title = name
		return it, nil
	}
	it.Name = name
	if it.Type == TypePlaybook {
		var p playbook.Playbook
		if err := json.Unmarshal(it.Data, &p); err != nil {
			return it, err
		}
		p.Name = name
		it.Data = mustJSON(&p)
	}
	return it, nil
}

// writeItem creates the item (targetID "") or replaces the one with that
// id, returning the id.
func writeItem(ctx context.Context, st *store.Store, it Item, targetID, pkg string, opts InstallOptions) (string, error) {
	switch it.Type {
	case TypePlaybook:
		return writePlaybook(ctx, st, it, targetID, opts)
	case TypeHunt:
		return writeHunt(ctx, st, it, targetID, opts.By)
	case TypeKnowledge:
		a := &store.KnowledgeArticle{ID: targetID, Title: it.Title, Content: it.Content, Tags: store.NewJSON(it.Tags),
			IncidentTypes: store.NewJSON(it.IncidentTypes), PackageName: pkg, CreatedBy: opts.By, UpdatedBy: opts.By}
		if targetID == "" {
			return a.ID, st.CreateKnowledge(ctx, a)
		}
		return a.ID, st.UpdateKnowledge(ctx, a)
	case TypeQuery:
		if _, ok := library.Get(it.Name); ok {
			// The built-in library lives in code; the built-in package
			// only records that it carries it.
			return it.Name, nil
		}
		q := &store.PackageQuery{Name: it.Name, Title: it.Title, QueryType: it.QueryType, Query: it.Query,
			Category: it.Category, Description: it.Description, Parameters: store.NewJSON(it.Parameters),
			Templates: store.NewJSON(it.Templates), ExpectedBaseline: it.ExpectedBaseline, Severity: it.Severity,
			MitreTechniques: store.NewJSON(it.MitreTechniques), KeyFields: store.NewJSON(it.KeyFields), PackageName: pkg}
		return q.Name, st.PutPackageQuery(ctx, q)
	}
	return "", errors.New("unknown item type " + it.Type)
}

func writePlaybook(ctx context.Context, st *store.Store, it Item, targetID string, opts InstallOptions) (string, error) {
	var p playbook.Playbook
	if err := json.Unmarshal(it.Data, &p); err != nil {
		return "", err
	}
	text, err := playbook.Marshal(&p)
	if err != nil {
		return "", err
	}
	meta := store.PlaybookMeta{Name: p.Name, Description: p.Description,
		TriggerIncidentType: p.Triggers.IncidentType, AutoRun: p.Triggers.AutoRun}
	if targetID == "" {
		saved, err := st.CreatePlaybook(ctx, meta, string(text), opts.By, opts.Builtin)
		if err != nil {
			return "", err
		}
		return saved.ID, nil
	}
	cur, _, err := st.GetPlaybook(ctx, targetID)
	if err != nil {
		return "", err
	}
	_, err = st.SavePlaybookVersion(ctx, targetID, meta, cur.Enabled, string(text), opts.By)
	return targetID, err
}

func writeHunt(ctx context.Context, st *store.Store, it Item, targetID, by string) (string, error) {
	var d HuntData
	if err := json.Unmarshal(it.Data, &d); err != nil {
		return "", err
	}
	d.FillDefaults()
	h := &store.Hunt{ID: targetID, Name: it.Name, Hypothesis: d.Hypothesis, HuntType: d.HuntType, Status: d.Status,
		Queries: store.NewJSON(d.Queries), Schedule: store.NewJSON(d.Schedule), TriggerSpec: store.NewJSON(d.Trigger),
		MitreTechniques: store.NewJSON(d.MitreTechniques), DataSources: store.NewJSON(d.DataSources),
		Tags: store.NewJSON(d.Tags), Enabled: *d.Enabled, FailHuntOnError: d.FailHuntOnError, CreatedBy: by}
	if targetID == "" {
		return h.ID, st.CreateHunt(ctx, h)
	}
	return h.ID, st.UpdateHunt(ctx, h)
}

// removeItem deletes an installed item nobody changed since, or keeps a
// changed one (no longer recorded as the package's).
func removeItem(ctx context.Context, st *store.Store, it store.PackageItem) (Outcome, error) {
	o := Outcome{Type: it.ItemType, Name: it.ItemName, TargetID: it.TargetID, Index: -1}
	current, err := currentItem(ctx, st, it.ItemType, it.TargetID)
	if errors.Is(err, store.ErrNotFound) {
		o.Action, o.Reason = ActionRemoved, "already gone"
		return o, st.ForgetPackageItem(ctx, it.ItemType, it.TargetID)
	}
	if err != nil {
		return o, err
	}
	if err := st.ForgetPackageItem(ctx, it.ItemType, it.TargetID); err != nil {
		return o, err
	}
	if Hash(current) != it.ContentHash {
		o.Action, o.Reason = ActionKept, "changed here since the package installed it"
		return o, nil
	}
	o.Action = ActionRemoved
	switch it.ItemType {
	case TypePlaybook:
		err = st.DeletePlaybook(ctx, it.TargetID)
	case TypeHunt:
		err = st.DeleteHunt(ctx, it.TargetID)
	case TypeKnowledge:
		err = st.DeleteKnowledge(ctx, it.TargetID)
	case TypeQuery:
		if _, ok := library.Get(it.TargetID); !ok {
			err = st.DeletePackageQuery(ctx, it.TargetID)
		}
	}
	return o, err
}

// Uninstall removes a package: the items it installed that nobody changed
// since are deleted, changed ones kept and listed. Everything happens in
// one transaction.
func Uninstall(ctx context.Context, st *store.Store, name string) ([]Outcome, error) {
	var out []Outcome
	err := st.InTx(ctx, func(tx *store.Store) error {
		pkg, err := tx.GetPackage(ctx, name)
		if err != nil {
			return err
		}
		if pkg.Builtin {
			return ErrBuiltinPackage
		}
		items, err := tx.PackageItems(ctx, name)
		if err != nil {
			return err
		}
		out = make([]Outcome, 0, len(items))
		for _, it := range items {
			o, err := removeItem(ctx, tx, it)
			if err != nil {
				return err
			}
			out = append(out, o)
		}
		return tx.DeletePackage(ctx, name)
	})
	return out, err
}
