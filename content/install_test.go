package content_test

import (
	"context"
	"encoding/json"
	"reflect"
	"testing"

	"github.com/vigil-soc/vigil/content"
	"github.com/vigil-soc/vigil/internal/testenv"
	"github.com/vigil-soc/vigil/store"
)

// exportAll reads back every item the package installed, in package order.
func exportAll(t *testing.T, st *store.Store, name string) []content.Item {
	t.Helper()
	ctx := context.Background()
	items, err := st.PackageItems(ctx, name)
	if err != nil {
		t.Fatal(err)
	}
	byType := map[string]content.Item{}
	for _, it := range items {
		var got content.Item
		switch it.ItemType {
		case content.TypePlaybook:
			got, err = content.PlaybookItem(ctx, st, it.TargetID)
		case content.TypeHunt:
			got, err = content.HuntItem(ctx, st, it.TargetID)
		case content.TypeKnowledge:
			var a *store.KnowledgeArticle
			if a, err = st.GetKnowledge(ctx, it.TargetID); err == nil {
				got = content.KnowledgeItem(a)
			}
		case content.TypeQuery:
			var q *store.PackageQuery
			if q, err = st.GetPackageQuery(ctx, it.TargetID); err == nil {
				got = content.QueryItem(q)
			}
		}
		if err != nil {
			t.Fatal(err)
		}
		byType[it.ItemType] = got
	}
	return []content.Item{byType["playbook"], byType["hunt"], byType["knowledge"], byType["query"]}
}

func TestExportedPackageReimportsToIdenticalItems(t *testing.T) {
	st := testenv.OpenStore(t)
	res := install(t, st, samplePackage("1.0.0"), content.ConflictSkip)
	if res.Imported != 4 || res.Skipped != 0 || len(res.Errors) != 0 {
		t.Fatalf("first import: %+v", res)
	}
	first := exportAll(t, st, "team-content")
	exported, err := json.Marshal(&content.Package{Manifest: content.Manifest{Name: "team-content", Version: "1.0.0",
		Description: "shared", Author: "Blue team"}, Contents: first})
	if err != nil {
		t.Fatal(err)
	}
	// A second installation receives the exported package.
	other := testenv.OpenStore(t)
	res = install(t, other, exported, content.ConflictSkip)
	if res.Imported != 4 {
		t.Fatalf("re-import: %+v", res)
	}
	second := exportAll(t, other, "team-content")
	for i := range first {
		if content.Hash(first[i]) != content.Hash(second[i]) {
			a, _ := json.Marshal(first[i])
			b, _ := json.Marshal(second[i])
			t.Errorf("item %d differs after a round trip:\n%s\n%s", i, a, b)
		}
	}
	// And re-importing the same package where it is installed changes nothing.
	res = install(t, other, exported, content.ConflictSkip)
	if res.Imported != 0 || res.Skipped != 4 {
		t.Fatalf("same package again: %+v", res)
	}
	for k, a := range actions(res) {
		if a != content.ActionUnchanged {
			t.Errorf("%s: %s, want unchanged", k, a)
		}
	}
}

func TestConflictModes(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		mode     content.Conflict
		want     string
		imported int
	}{
		{content.ConflictSkip, content.ActionSkipped, 0},
		{content.ConflictOverwrite, content.ActionUpdated, 1},
		{content.ConflictRename, content.ActionRenamed, 1},
	} {
		t.Run(string(tc.mode), func(t *testing.T) {
			st := testenv.OpenStore(t)
			local := &store.KnowledgeArticle{Title: "Ransomware runbook", Content: "our own words"}
			if err := st.CreateKnowledge(ctx, local); err != nil {
				t.Fatal(err)
			}
			// Two renames in a row must not collide.
			if tc.mode == content.ConflictRename {
				if err := st.CreateKnowledge(ctx, &store.KnowledgeArticle{Title: "Ransomware runbook-imported-1"}); err != nil {
					t.Fatal(err)
				}
			}
			res := install(t, st, samplePackage("1.0.0"), tc.mode)
			if got := actions(res)["knowledge:Ransomware runbook"]; got != tc.want {
				t.Fatalf("action %q, want %q (%+v)", got, tc.want, res.Items)
			}
			if res.Imported != 3+tc.imported {
				t.Fatalf("imported %d, want %d", res.Imported, 3+tc.imported)
			}
			kept, err := st.GetKnowledge(ctx, local.ID)
			if err != nil {
				t.Fatal(err)
			}
			switch tc.mode {
			case content.ConflictSkip, content.ConflictRename:
				if kept.Content != "our own words" {
					t.Fatalf("local article changed: %q", kept.Content)
				}
			case content.ConflictOverwrite:
				if kept.Content == "our own words" {
					t.Fatal("overwrite kept the local article")
				}
			}
			if tc.mode == content.ConflictRename {
				if _, err := st.KnowledgeByTitle(ctx, "Ransomware runbook-imported-2"); err != nil {
					t.Fatalf("renamed copy: %v", err)
				}
				// Importing the package again (default skip) keeps its
				// renamed copy as the package's item: nothing is dropped
				// and no third copy appears.
				again := install(t, st, samplePackage("1.0.0"), content.ConflictSkip)
				if len(again.Previous) != 0 {
					t.Fatalf("re-import dropped %+v", again.Previous)
				}
				if _, err := st.KnowledgeByTitle(ctx, "Ransomware runbook-imported-2"); err != nil {
					t.Fatalf("renamed copy after re-import: %v", err)
				}
				if got := actions(again)["knowledge:Ransomware runbook"]; got != content.ActionUnchanged {
					t.Fatalf("re-import action %q (%+v)", got, again.Items)
				}
				if _, err := st.KnowledgeByTitle(ctx, "Ransomware runbook-imported-3"); err == nil {
					t.Fatal("re-import made another copy")
				}
			}
		})
	}
}

func TestUpgradeRespectsLocalChangesAndDropsStaleItems(t *testing.T) {
	ctx := context.Background()
	st := testenv.OpenStore(t)
	install(t, st, samplePackage("1.0.0"), content.ConflictSkip)
	a, err := st.KnowledgeByTitle(ctx, "Ransomware runbook")
	if err != nil {
		t.Fatal(err)
	}
	a.Content = "edited here"
	if err := st.UpdateKnowledge(ctx, a); err != nil {
		t.Fatal(err)
	}
	// Version 1.1.0 changes the playbook and the article and no longer
	// carries the query.
	var p map[string]any
	_ = json.Unmarshal(samplePackage("1.1.0"), &p)
	items := p["contents"].([]any)
	items[0].(map[string]any)["data"] = json.RawMessage(`{"name":"Contain host","description":"isolate it, v2",
	 "steps":[{"name":"isolate","action":"isolate_host","parameters":{"host_id":"h1"}}]}`)
	items[2].(map[string]any)["content"] = "# Ransomware\n\nv2"
	hunt := items[1].(map[string]any)
	hunt["data"] = json.RawMessage(`{"queries":[{"query_type":"sql","library_id":"ca-password-spray"}]}`)
	p["contents"] = items[:3]
	text, _ := json.Marshal(p)

	res := install(t, st, text, content.ConflictSkip)
	got := actions(res)
	want := map[string]string{"playbook:Contain host": content.ActionUpdated, "hunt:Spray watch": content.ActionUpdated,
		"knowledge:Ransomware runbook": content.ActionSkipped}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("upgrade actions %v, want %v", got, want)
	}
	if res.Upgraded != "1.0.0" || len(res.Previous) != 1 || res.Previous[0].Action != content.ActionRemoved {
		t.Fatalf("upgrade: from %q, previous %+v", res.Upgraded, res.Previous)
	}
	if _, err := st.GetPackageQuery(ctx, "team-odd-logons"); err == nil {
		t.Fatal("the dropped query is still installed")
	}
	pb, err := st.PlaybookByName(ctx, "Contain host")
	if err != nil || pb.Version != "1.1" {
		t.Fatalf("playbook after upgrade: %+v %v (the old version must be kept)", pb, err)
	}
	if a, _ = st.GetKnowledge(ctx, a.ID); a.Content != "edited here" {
		t.Fatalf("a local edit was overwritten: %q", a.Content)
	}
	// Overwrite applies to the locally changed item.
	res = install(t, st, text, content.ConflictOverwrite)
	if got := actions(res)["knowledge:Ransomware runbook"]; got != content.ActionUpdated {
		t.Fatalf("overwrite of a changed item: %s", got)
	}
	pkg, err := st.GetPackage(ctx, "team-content")
	if err != nil || pkg.Version != "1.1.0" || pkg.InstalledBy != "alice" {
		t.Fatalf("package record: %+v %v", pkg, err)
	}
}

func TestUninstallKeepsLocallyChangedItems(t *testing.T) {
	ctx := context.Background()
	st := testenv.OpenStore(t)
	install(t, st, samplePackage("1.0.0"), content.ConflictSkip)
	h, err := st.HuntByName(ctx, "Spray watch")
	if err != nil {
		t.Fatal(err)
	}
	h.Hypothesis = "tuned here"
	if err := st.UpdateHunt(ctx, h); err != nil {
		t.Fatal(err)
	}
	out, err := content.Uninstall(ctx, st, "team-content")
	if err != nil {
		t.Fatal(err)
	}
	kept := 0
	for _, o := range out {
		if o.Action == content.ActionKept {
			kept++
			if o.Type != content.TypeHunt {
				t.Errorf("kept %s %s", o.Type, o.Name)
			}
		}
	}
	if kept != 1 || len(out) != 4 {
		t.Fatalf("uninstall outcomes %+v", out)
	}
	if _, err := st.HuntByName(ctx, "Spray watch"); err != nil {
		t.Fatalf("changed hunt removed: %v", err)
	}
	if _, err := st.PlaybookByName(ctx, "Contain host"); err == nil {
		t.Fatal("untouched playbook left behind")
	}
	if _, err := st.GetPackage(ctx, "team-content"); err == nil {
		t.Fatal("package record left behind")
	}
}

func TestInvalidItemsAreReportedAndNothingOfThemWritten(t *testing.T) {
	ctx := context.Background()
	st := testenv.OpenStore(t)
	var p map[string]any
	_ = json.Unmarshal(samplePackage("1.0.0"), &p)
	items := p["contents"].([]any)
	items[1].(map[string]any)["data"] = json.RawMessage(`{"queries":[{"query_type":"sql","library_id":"no-such"}]}`)
	text, _ := json.Marshal(p)
	res := install(t, st, text, content.ConflictSkip)
	if res.Imported != 3 || len(res.Errors) != 1 || *res.Errors[0].Index != 1 {
		t.Fatalf("result %+v", res)
	}
	if _, err := st.HuntByName(ctx, "Spray watch"); err == nil {
		t.Fatal("the invalid hunt was written")
	}
}

func TestDryRunWritesNothing(t *testing.T) {
	ctx := context.Background()
	st := testenv.OpenStore(t)
	p, rep := check(t, samplePackage("1.0.0"), content.Options{})
	res, err := content.Install(ctx, st, p, rep, content.InstallOptions{DryRun: true})
	if err != nil || res.Imported != 4 {
		t.Fatalf("dry run %+v %v", res, err)
	}
	if pkgs, _ := st.ListPackages(ctx); len(pkgs) != 0 {
		t.Fatalf("dry run installed %v", pkgs)
	}
	if _, err := st.PlaybookByName(ctx, "Contain host"); err == nil {
		t.Fatal("dry run wrote a playbook")
	}
}

func TestBuiltinPackageInstallsAdoptsAndCannotBeReplaced(t *testing.T) {
	ctx := context.Background()
	st := testenv.OpenStore(t)
	res, err := content.EnsureBuiltin(ctx, st, "devel")
	if err != nil || res == nil || len(res.Errors) != 0 {
		t.Fatalf("ensure builtin: %+v %v", res, err)
	}
	if again, err := content.EnsureBuiltin(ctx, st, "devel"); err != nil || again != nil {
		t.Fatalf("second start reinstalled: %+v %v", again, err)
	}
	hits, err := st.SearchKnowledge(ctx, "phishing", 10)
	if err != nil || len(hits) == 0 || hits[0].Title != "Phishing runbook" {
		t.Fatalf("runbooks not searchable: %+v %v", hits, err)
	}
	if _, err := content.Uninstall(ctx, st, content.BuiltinName); err != content.ErrBuiltinPackage {
		t.Fatalf("uninstall builtin: %v", err)
	}
	// An import naming a built-in playbook is skipped even with overwrite.
	pkg := []byte(`{"manifest":{"name":"x","version":"1.0.0","author":"a","description":"d"},"contents":[
	 {"type":"playbook","name":"Phishing triage","data":{"name":"Phishing triage","steps":[{"name":"s","action":"block_sender","parameters":{"sender":"bad@example.com","reason":"r"}}]}},
	 {"type":"query","name":"ca-password-spray","query_type":"sql","query":"SELECT 1"}]}`)
	res2 := install(t, st, pkg, content.ConflictOverwrite)
	if len(res2.Items) != 2 || len(res2.Errors) != 0 {
		t.Fatalf("import over built-ins: %+v", res2)
	}
	for _, o := range res2.Items {
		if o.Action != content.ActionSkipped {
			t.Errorf("%s %s: %s, want skipped", o.Type, o.Name, o.Action)
		}
	}
	bad := []byte(`{"manifest":{"name":"vigil-builtin","version":"9.0.0","author":"a","description":"d"},"contents":[]}`)
	p, rep := check(t, bad, content.Options{})
	if _, err := content.Install(ctx, st, p, rep, content.InstallOptions{}); err != content.ErrBuiltinPackage {
		t.Fatalf("replacing the built-in package: %v", err)
	}
}
