package content

import (
	"context"
	"embed"
	"errors"
	"fmt"

	"github.com/vigil-soc/vigil/hunt/library"
	"github.com/vigil-soc/vigil/playbook"
	"github.com/vigil-soc/vigil/store"
)

// Name and version of the content Vigil ships. The version goes up with
// every change to the built-in playbooks, library or runbooks, which
// upgrades installations on their next start.
const (
	BuiltinName    = "vigil-builtin"
	BuiltinVersion = "1.0.0"
)

//go:embed builtin/*.md
var runbooks embed.FS

// builtinRunbooks are the starter knowledge base: file, title and the
// incident types each serves.
var builtinRunbooks = []struct{ file, title, incidentType string }{
	{"phishing.md", "Phishing runbook", "phishing"},
	{"malware.md", "Malware runbook", "malware"},
	{"suspicious_login.md", "Suspicious sign-in runbook", "suspicious_login"},
}

// Builtin is the package of content Vigil ships: the built-in playbooks,
// the hunt query library and the starter runbooks.
func Builtin() *Package {
	p := &Package{Manifest: Manifest{Name: BuiltinName, Version: BuiltinVersion, Author: "Vigil",
		Description: "Playbooks, hunt queries and runbooks that ship with Vigil", License: "Apache-2.0",
		Tags: []string{"builtin"}}}
	for _, pb := range playbook.Builtins() {
		p.Contents = append(p.Contents, Item{Type: TypePlaybook, Name: pb.Name, Data: mustJSON(pb)})
	}
	for _, q := range library.All() {
		p.Contents = append(p.Contents, LibraryItem(q))
	}
	for _, r := range builtinRunbooks {
		text, err := runbooks.ReadFile("builtin/" + r.file)
		if err != nil {
			continue
		}
		p.Contents = append(p.Contents, Item{Type: TypeKnowledge, Title: r.title, Content: string(text),
			Tags: []string{"runbook"}, IncidentTypes: []string{r.incidentType}})
	}
	return p
}

// EnsureBuiltin installs the built-in package when it is missing or older
// than this build's. Built-in items changed here are left as they are.
func EnsureBuiltin(ctx context.Context, st *store.Store, serviceVersion string) (*Result, error) {
	return ensureBuiltin(ctx, st, serviceVersion, 3)
}

func ensureBuiltin(ctx context.Context, st *store.Store, serviceVersion string, attempts int) (*Result, error) {
	cur, err := st.GetPackage(ctx, BuiltinName)
	switch {
	case err == nil && !NewerThan(BuiltinVersion, cur.Version):
		return nil, nil
	case err != nil && !errors.Is(err, store.ErrNotFound):
		return nil, err
	}
	p := Builtin()
	rep := Validate(p, nil, Options{ServiceVersion: serviceVersion})
	if !rep.Valid {
		return nil, fmt.Errorf("built-in content does not validate: %v", rep.Errors)
	}
	res, err := Install(ctx, st, p, rep, InstallOptions{Conflict: ConflictSkip, By: "system", Builtin: true})
	if errors.Is(err, store.ErrConflict) && attempts > 1 {
		// Another process starting at the same moment installed the same
		// items first; this transaction rolled back, and a second pass
		// finds the package in place (or adopts what it wrote).
		return ensureBuiltin(ctx, st, serviceVersion, attempts-1)
	}
	if err != nil {
		return nil, fmt.Errorf("install built-in content: %w", err)
	}
	return &res, nil
}
