package store_test

import (
	"context"
	"reflect"
	"testing"

	"github.com/vigil-soc/vigil/internal/testenv"
	"github.com/vigil-soc/vigil/store"
)

func TestAllPackageItemsMatchesPackageItems(t *testing.T) {
	st := testenv.OpenStore(t)
	ctx := context.Background()
	put := map[string][]store.PackageItem{
		"alpha": {{ItemType: store.ItemQuery, TargetID: "q1", ItemName: "zeta"},
			{ItemType: store.ItemHunt, TargetID: "h1", ItemName: "beta"},
			{ItemType: store.ItemHunt, TargetID: "h2", ItemName: "alpha"}},
		"beta":  {{ItemType: store.ItemKnowledge, TargetID: "k1", ItemName: "notes"}},
		"empty": nil,
	}
	for name, items := range put {
		if err := st.PutPackage(ctx, &store.InstalledPackage{Name: name, Version: "1.0.0"}); err != nil {
			t.Fatal(err)
		}
		for _, it := range items {
			it.PackageName, it.PackageVersion = name, "1.0.0"
			if err := st.PutPackageItem(ctx, &it); err != nil {
				t.Fatal(err)
			}
		}
	}
	all, err := st.AllPackageItems(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for name := range put {
		one, err := st.PackageItems(ctx, name)
		if err != nil {
			t.Fatal(err)
		}
		if len(one) != len(put[name]) {
			t.Fatalf("%s: PackageItems has %d items, put %d", name, len(one), len(put[name]))
		}
		if len(one) == 0 {
			one = nil
		}
		if !reflect.DeepEqual(all[name], one) {
			t.Errorf("%s: AllPackageItems = %+v, PackageItems = %+v", name, all[name], one)
		}
	}
	if got := all["alpha"]; len(got) != 3 || got[0].ItemName != "alpha" || got[2].ItemType != store.ItemQuery {
		t.Errorf("alpha items not by type and name: %+v", got)
	}
}
