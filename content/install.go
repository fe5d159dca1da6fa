package content

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/vigil-soc/vigil/hunt/library"
	"github.com/vigil-soc/vigil/store"
)

// Conflict says what an import does with an item whose name is taken.
type Conflict string

// Conflict resolutions, as the import request names them.
const (
	ConflictSkip      Conflict = "skip"
	ConflictOverwrite Conflict = "overwrite"
	ConflictRename    Conflict = "rename"
)

// Actions an import takes on an item.
const (
	ActionCreated   = "created"
	ActionUpdated   = "updated"
	ActionRenamed   = "renamed"
	ActionSkipped   = "skipped"
	ActionUnchanged = "unchanged"
	ActionRemoved   = "removed"
	ActionKept      = "kept"
)

// InstallOptions say how to install.
type InstallOptions struct {
	Conflict Conflict
	// By is who installs, recorded on the package and its items.
	By string
	// Builtin installs the package Vigil ships: its items are built-in.
	Builtin bool
	// DryRun works out every outcome and writes nothing.
	DryRun bool
}

// Outcome is what an import did, or would do, with one item.
type Outcome struct {
	Index       int    `json:"index"`
	Type        string `json:"type"`
	Name        string `json:"name"`
	Action      string `json:"action"`
	InstalledAs string `json:"installed_as,omitempty"`
	Reason      string `json:"reason,omitempty"`
	// TargetID is the id of the installed playbook, hunt, article or
	// query.
	TargetID string `json:"target_id,omitempty"`
}

// Result is the outcome of an import, in the SPEC's shape plus the
// outcome of every item.
type Result struct {
	Imported int       `json:"imported"`
	Skipped  int       `json:"skipped"`
	Errors   []Problem `json:"errors"`
	Items    []Outcome `json:"items"`
	// Previous lists items an upgrade dropped: removed when untouched,
	// kept when changed locally.
	Previous []Outcome `json:"previous,omitempty"`
	// Upgraded is the version replaced, when the package was installed.
	Upgraded string `json:"upgraded_from,omitempty"`
}

// HuntIDs lists the hunts the import created or changed, whose schedules
// the caller brings in line.
func (r Result) HuntIDs() []string {
	var out []string
	for _, o := range r.Items {
		if o.Type == TypeHunt && o.TargetID != "" && o.Action != ActionSkipped && o.Action != ActionUnchanged {
			out = append(out, o.TargetID)
		}
	}
	return out
}

// errDryRun rolls a dry run's transaction back.
var errDryRun = errors.New("dry run")

// ErrBuiltinPackage means the built-in package cannot be removed or
// replaced by an import.
var ErrBuiltinPackage = errors.New("the built-in content package cannot be removed or replaced")

// Install writes a validated package's ready items in one transaction:
// all of them, or none when anything fails. rep must come from Validate
// of p and must not have PackageError set.
func Install(ctx context.Context, st *store.Store, p *Package, rep Report, opts InstallOptions) (Result, error) {
	if rep.PackageError {
		return Result{}, errors.New("package does not validate")
	}
	if opts.Conflict == "" {
		opts.Conflict = ConflictSkip
	}
	res := Result{Errors: itemErrors(rep.Errors), Items: []Outcome{}}
	err := st.InTx(ctx, func(tx *store.Store) error {
		prev, err := tx.GetPackage(ctx, p.Manifest.Name)
		switch {
		case errors.Is(err, store.ErrNotFound):
			prev = nil
		case err != nil:
			return err
		case prev.Builtin && !opts.Builtin:
			return ErrBuiltinPackage
		default:
			res.Upgraded = prev.Version
		}
		in := &installer{st: tx, p: p, opts: opts, taken: map[string]bool{}, touched: map[string]bool{},
			builtinPackages: map[string]bool{}}
		// The package record comes first: its items refer to it.
		if err := tx.PutPackage(ctx, in.record(prev, rep.SignedBy)); err != nil {
			return err
		}
		for _, r := range rep.Ready {
			o, err := in.install(ctx, r)
			if err != nil {
				return fmt.Errorf("install contents[%d] (%s %q): %w", r.Index, r.Item.Type, r.Item.Key(), err)
			}
			res.Items = append(res.Items, o)
			switch o.Action {
			case ActionCreated, ActionUpdated, ActionRenamed:
				res.Imported++
			default:
				res.Skipped++
			}
		}
		if prev != nil {
			if res.Previous, err = in.dropStale(ctx); err != nil {
				return err
			}
		}
		if opts.DryRun {
			return errDryRun
		}
		return nil
	})
	if err != nil && !errors.Is(err, errDryRun) {
		return Result{}, err
	}
	return res, nil
}

func itemErrors(list []Problem) []Problem {
	out := []Problem{}
	for _, p := range list {
		if p.Index != nil {
			out = append(out, p)
		}
	}
	return out
}

type installer struct {
	st   *store.Store
	p    *Package
	opts InstallOptions
	// taken holds names given out by renames in this import.
	taken map[string]bool
	// touched holds the type and target id of every item this import
	// installed or kept for the package.
	touched map[string]bool
	// builtinPackages remembers, by package name, whether an installed
	// package is the built-in one: conflicting items mostly share owners.
	builtinPackages map[string]bool
	// installed is what the package had installed before this import,
	// read on first need.
	installed *[]store.PackageItem
}

func (in *installer) record(prev *store.InstalledPackage, signedBy string) *store.InstalledPackage {
	m := in.p.Manifest
	rec := &store.InstalledPackage{Name: m.Name, Version: m.Version, Description: m.Description, Author: m.Author,
		License: m.License, Tags: store.NewJSON(m.Tags), Compatibility: m.Compatibility, Builtin: in.opts.Builtin,
		SignedBy: signedBy, InstalledBy: in.opts.By}
	if prev != nil {
		rec.InstalledAt = prev.InstalledAt
	}
	return rec
}

// install decides what to do with one item and does it.
func (in *installer) install(ctx context.Context, r Ready) (Outcome, error) {
	it := r.Item
	o := Outcome{Index: r.Index, Type: it.Type, Name: it.Key()}
	targetID, found, err := findItem(ctx, in.st, it.Type, it.Key())
	if err != nil {
		return o, err
	}
	if !found {
		return in.write(ctx, o, it, "", ActionCreated)
	}
	o.TargetID = targetID
	owner, err := in.st.ItemOwner(ctx, it.Type, targetID)
	if err != nil && !errors.Is(err, store.ErrNotFound) {
		return o, err
	}
	builtin, err := in.isBuiltin(ctx, it.Type, targetID, owner)
	if err != nil {
		return o, err
	}
	if owner == nil || owner.PackageName != in.p.Manifest.Name {
		// An earlier import of this package may have installed the item
		// under a "-imported-<n>" name, its own being taken: that copy is
		// the package's, to update or keep like any item it owns.
		copied, ok, err := in.renamedCopy(ctx, it)
		if err != nil {
			return o, err
		}
		if ok {
			if it, err = withName(it, copied.ItemName); err != nil {
				return o, err
			}
			targetID, owner, builtin, r.Hash = copied.TargetID, &copied, false, Hash(it)
			o.TargetID = targetID
		}
	}
	if in.opts.Builtin && owner == nil {
		// Built-in content that predates the package: adopted when it is
		// as shipped, left alone when changed here.
		return in.adopt(ctx, o, it, targetID, r.Hash)
	}
	if owner != nil && owner.PackageName == in.p.Manifest.Name {
		current, err := currentItem(ctx, in.st, it.Type, targetID)
		if err != nil {
			return o, err
		}
		if Hash(current) == owner.ContentHash {
			in.touched[it.Type+"\x00"+targetID] = true
			if r.Hash == owner.ContentHash {
				o.Action = ActionUnchanged
				return o, in.own(ctx, it, targetID, r.Hash)
			}
			return in.write(ctx, o, it, targetID, ActionUpdated)
		}
		o.Reason = "changed here since the package installed it"
	}
	if builtin && !in.opts.Builtin {
		if in.opts.Conflict == ConflictRename {
			return in.rename(ctx, o, it)
		}
		o.Action, o.Reason = ActionSkipped, "a built-in "+it.Type+" has this name and cannot be overwritten"
		return o, nil
	}
	switch in.opts.Conflict {
	case ConflictOverwrite:
		if owner != nil && owner.PackageName == in.p.Manifest.Name {
			in.touched[it.Type+"\x00"+targetID] = true
		}
		return in.write(ctx, o, it, targetID, ActionUpdated)
	case ConflictRename:
		return in.rename(ctx, o, it)
	}
	if owner != nil && owner.PackageName == in.p.Manifest.Name {
		// Kept as changed locally; it stays the package's item.
		in.touched[it.Type+"\x00"+targetID] = true
	}
	if o.Reason == "" {
		o.Reason = "an item with this name exists"
	}
	o.Action = ActionSkipped
	return o, nil
}

func (in *installer) adopt(ctx context.Context, o Outcome, it Item, targetID, hash string) (Outcome, error) {
	current, err := currentItem(ctx, in.st, it.Type, targetID)
	if err != nil {
		return o, err
	}
	if Hash(current) != hash {
		o.Action, o.Reason = ActionSkipped, "changed here; left as it is"
		return o, nil
	}
	in.touched[it.Type+"\x00"+targetID] = true
	o.Action = ActionUnchanged
	return o, in.own(ctx, it, targetID, hash)
}

func (in *installer) isBuiltin(ctx context.Context, itemType, targetID string, owner *store.PackageItem) (bool, error) {
	if itemType == TypeQuery {
		if _, ok := library.Get(targetID); ok {
			return true, nil
		}
	}
	if itemType == TypePlaybook {
		p, _, err := in.st.GetPlaybook(ctx, targetID)
		if err != nil {
			return false, err
		}
		if p.Builtin {
			return true, nil
		}
	}
	if owner == nil {
		return false, nil
	}
	return in.builtinPackage(ctx, owner.PackageName)
}

// builtinPackage reports whether the installed package name is the
// built-in one, reading each package's record once per import.
func (in *installer) builtinPackage(ctx context.Context, name string) (bool, error) {
	if b, ok := in.builtinPackages[name]; ok {
		return b, nil
	}
	pkg, err := in.st.GetPackage(ctx, name)
	switch {
	case errors.Is(err, store.ErrNotFound):
		in.builtinPackages[name] = false
	case err != nil:
		return false, err
	default:
		in.builtinPackages[name] = pkg.Builtin
	}
	return in.builtinPackages[name], nil
}

// rename installs it under the first free name "<name>-imported-<n>".
func (in *installer) rename(ctx context.Context, o Outcome, it Item) (Outcome, error) {
	for n := 1; n <= MaxItems+1; n++ {
		name := fmt.Sprintf("%s-imported-%d", it.Key(), n)
		if in.taken[it.Type+"\x00"+strings.ToLower(name)] {
			continue
		}
		_, found, err := findItem(ctx, in.st, it.Type, name)
		if err != nil {
			return o, err
		}
		if !found {
			in.taken[it.Type+"\x00"+strings.ToLower(name)] = true
			renamed, err := withName(it, name)
			if err != nil {
				return o, err
			}
			o.Reason = ""
			return in.write(ctx, o, renamed, "", ActionRenamed)
		}
	}
	return o, fmt.Errorf("no free name for %q", it.Key())
}

// write creates (targetID "") or replaces the item and records it as the
// package's.
func (in *installer) write(ctx context.Context, o Outcome, it Item, targetID, action string) (Outcome, error) {
	id, err := writeItem(ctx, in.st, it, targetID, in.p.Manifest.Name, in.opts)
	if err != nil {
		return o, err
	}
	in.touched[it.Type+"\x00"+id] = true
	o.Action, o.TargetID = action, id
	if it.Key() != o.Name {
		o.InstalledAs = it.Key()
	}
	return o, in.own(ctx, it, id, Hash(it))
}

func (in *installer) own(ctx context.Context, it Item, targetID, hash string) error {
	return in.st.PutPackageItem(ctx, &store.PackageItem{PackageName: in.p.Manifest.Name, ItemType: it.Type,
		TargetID: targetID, ItemName: it.Key(), PackageVersion: in.p.Manifest.Version, ContentHash: hash})
}

// renamedCopy finds the item an earlier import of this package installed
// under "<name>-imported-<n>" because the item's own name was taken. The
// package's items are read once per import: an item is never renamed onto
// another item's copy, so what this import writes cannot change the answer.
func (in *installer) renamedCopy(ctx context.Context, it Item) (store.PackageItem, bool, error) {
	if in.installed == nil {
		items, err := in.st.PackageItems(ctx, in.p.Manifest.Name)
		if err != nil {
			return store.PackageItem{}, false, err
		}
		in.installed = &items
	}
	items := *in.installed
	prefix := strings.ToLower(it.Key()) + "-imported-"
	for _, pi := range items {
		n, ok := strings.CutPrefix(strings.ToLower(pi.ItemName), prefix)
		if _, err := strconv.Atoi(n); ok && err == nil && pi.ItemType == it.Type {
			return pi, true, nil
		}
	}
	return store.PackageItem{}, false, nil
}

// dropStale handles what the previous version installed and this one no
// longer carries: untouched items are removed, changed ones kept (and no
// longer counted as the package's).
func (in *installer) dropStale(ctx context.Context) ([]Outcome, error) {
	items, err := in.st.PackageItems(ctx, in.p.Manifest.Name)
	if err != nil {
		return nil, err
	}
	var out []Outcome
	for _, it := range items {
		if in.touched[it.ItemType+"\x00"+it.TargetID] {
			continue
		}
		o, err := removeItem(ctx, in.st, it)
		if err != nil {
			return nil, err
		}
		out = append(out, o)
	}
	return out, nil
}
