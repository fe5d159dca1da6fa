package store_test

import (
	"context"
	"slices"
	"testing"

	"github.com/vigil-soc/vigil/internal/testenv"
	"github.com/vigil-soc/vigil/store"
)

// A rule written through the store applies to the next cached read at
// once, whether it is created, disabled, re-enabled inside a package
// transaction, or deleted.
func TestCachedEnabledPoliciesFollowWritesAtOnce(t *testing.T) {
	st := testenv.OpenStore(t)
	ctx := context.Background()
	cached := func() []string {
		t.Helper()
		ps, err := st.CachedEnabledPolicies(ctx)
		if err != nil {
			t.Fatal(err)
		}
		return policyNames(ps)
	}
	if got := cached(); len(got) != 0 {
		t.Fatalf("cached %v before any rule", got)
	}
	p := newPolicy("first", 1, true)
	if err := st.CreatePolicy(ctx, p); err != nil {
		t.Fatal(err)
	}
	if got := cached(); !slices.Equal(got, []string{"first"}) {
		t.Fatalf("after create: %v", got)
	}
	p.Enabled = false
	if err := st.UpdatePolicy(ctx, p); err != nil {
		t.Fatal(err)
	}
	if got := cached(); len(got) != 0 {
		t.Fatalf("after disabling: %v", got)
	}
	err := st.InTx(ctx, func(tx *store.Store) error {
		p.Enabled = true
		return tx.UpdatePolicy(ctx, p)
	})
	if err != nil {
		t.Fatal(err)
	}
	if got := cached(); !slices.Equal(got, []string{"first"}) {
		t.Fatalf("after enabling in a transaction: %v", got)
	}
	if err := st.DeletePolicy(ctx, p.ID); err != nil {
		t.Fatal(err)
	}
	if got := cached(); len(got) != 0 {
		t.Fatalf("after delete: %v", got)
	}
}
