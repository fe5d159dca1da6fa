package content_test

import (
	"context"
	"testing"

	"github.com/vigil-soc/vigil/content"
	"github.com/vigil-soc/vigil/hunt"
	"github.com/vigil-soc/vigil/hunt/library"
	"github.com/vigil-soc/vigil/internal/testenv"
)

func TestPackageQueriesJoinTheLibraryAndServeHunts(t *testing.T) {
	ctx := context.Background()
	st := testenv.OpenStore(t)
	install(t, st, samplePackage("1.0.0"), content.ConflictSkip)
	extra, err := content.PackageLibrary(ctx, st)
	if err != nil || len(extra) != 1 || extra[0].ID != "team-odd-logons" || extra[0].Package != "team-content" {
		t.Fatalf("package library: %+v %v", extra, err)
	}
	h, err := st.HuntByName(ctx, "Spray watch")
	if err != nil {
		t.Fatal(err)
	}
	kind := func(string) string { return "sql" }
	h.DataSources.V = []string{"events"}
	if _, err := hunt.PlanWith(h, kind, library.Get); err == nil {
		t.Fatal("the built-in library alone resolved a package query")
	}
	plan, err := hunt.PlanWith(h, kind, content.QueryLookup(ctx, st))
	if err != nil {
		t.Fatal(err)
	}
	q := plan[1]
	if q.Name != "odd" || q.Severity != "medium" || q.Baseline != 2 || q.Params["late"] == nil || q.Keys[0] != "user_name" {
		t.Fatalf("planned package query: %+v", q)
	}
	siem := func(string) string { return "siem_search" }
	h.Queries.V[0].QueryType, h.Queries.V[1].QueryType = "siem_search", "siem_search"
	plan, err = hunt.PlanWith(h, siem, content.QueryLookup(ctx, st))
	if err != nil || plan[1].Query != "search index=auth hour>22" {
		t.Fatalf("siem template: %+v %v", plan, err)
	}
}
