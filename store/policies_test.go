package store_test

import (
	"context"
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/vigil-soc/vigil/internal/testenv"
	"github.com/vigil-soc/vigil/store"
)

func newPolicy(name string, priority int, enabled bool) *store.Policy {
	return &store.Policy{Name: name, Condition: "true", Action: "auto_approve",
		Priority: priority, Enabled: enabled, CreatedBy: "alice"}
}

func policyNames(ps []store.Policy) []string {
	out := make([]string, 0, len(ps))
	for _, p := range ps {
		out = append(out, p.Name)
	}
	return out
}

// samePolicy compares field by field; times by instant, since PostgreSQL
// hands them back in a different *time.Location.
func samePolicy(a, b *store.Policy) bool {
	x, y := *a, *b
	if !x.CreatedAt.Equal(y.CreatedAt) || !x.UpdatedAt.Equal(y.UpdatedAt) {
		return false
	}
	x.CreatedAt, x.UpdatedAt, y.CreatedAt, y.UpdatedAt = time.Time{}, time.Time{}, time.Time{}, time.Time{}
	return x == y
}

func TestPolicyCRUD(t *testing.T) {
	st := testenv.OpenStore(t)
	ctx := context.Background()

	p := &store.Policy{Name: "Deny Prod Wipes", Description: "never wipe production", Condition: `action.type == "wipe"`,
		Action: "require_approval", ApprovalLevel: "manager", Priority: 0, Enabled: false, CreatedBy: "alice"}
	if err := st.CreatePolicy(ctx, p); err != nil {
		t.Fatal(err)
	}
	if p.ID == "" || p.CreatedAt.IsZero() || !p.UpdatedAt.Equal(p.CreatedAt) {
		t.Fatalf("create did not fill id and timestamps: %+v", p)
	}
	got, err := st.GetPolicy(ctx, p.ID)
	if err != nil {
		t.Fatal(err)
	}
	if !samePolicy(got, p) {
		t.Fatalf("round trip:\n got %+v\nwant %+v", *got, *p)
	}

	got.Name, got.Condition, got.Action, got.ApprovalLevel = "deny prod wipes", "false", "deny", ""
	got.Priority, got.Enabled, got.Description = -3, true, ""
	if err := st.UpdatePolicy(ctx, got); err != nil {
		t.Fatal(err)
	}
	again, err := st.GetPolicy(ctx, p.ID)
	if err != nil {
		t.Fatal(err)
	}
	if !samePolicy(again, got) || again.CreatedBy != "alice" || !again.CreatedAt.Equal(p.CreatedAt) {
		t.Fatalf("after update:\n got %+v\nwant %+v", *again, *got)
	}

	if err := st.DeletePolicy(ctx, p.ID); err != nil {
		t.Fatal(err)
	}
	for name, err := range map[string]error{
		"get deleted":    func() error { _, err := st.GetPolicy(ctx, p.ID); return err }(),
		"delete deleted": st.DeletePolicy(ctx, p.ID),
		"update deleted": st.UpdatePolicy(ctx, got),
		"malformed get":  func() error { _, err := st.GetPolicy(ctx, "not-a-uuid"); return err }(),
		"malformed del":  st.DeletePolicy(ctx, "1 OR 1=1"),
		"malformed upd":  st.UpdatePolicy(ctx, &store.Policy{ID: "x"}),
	} {
		if !errors.Is(err, store.ErrNotFound) {
			t.Errorf("%s: %v, want ErrNotFound", name, err)
		}
	}
}

func TestPolicyNamesAreUniqueIgnoringCase(t *testing.T) {
	st := testenv.OpenStore(t)
	ctx := context.Background()
	first := newPolicy("Block Hosts", 0, true)
	if err := st.CreatePolicy(ctx, first); err != nil {
		t.Fatal(err)
	}
	if err := st.CreatePolicy(ctx, newPolicy("block hosts", 1, true)); !errors.Is(err, store.ErrConflict) {
		t.Fatalf("duplicate create: %v, want ErrConflict", err)
	}
	other := newPolicy("other", 0, true)
	if err := st.CreatePolicy(ctx, other); err != nil {
		t.Fatal(err)
	}
	other.Name = "BLOCK HOSTS"
	if err := st.UpdatePolicy(ctx, other); !errors.Is(err, store.ErrConflict) {
		t.Fatalf("rename onto a taken name: %v, want ErrConflict", err)
	}
	first.Name = "block hosts"
	if err := st.UpdatePolicy(ctx, first); err != nil {
		t.Fatalf("changing only the case of its own name: %v", err)
	}
}

func TestPoliciesListInEvaluationOrder(t *testing.T) {
	st := testenv.OpenStore(t)
	ctx := context.Background()
	for _, p := range []*store.Policy{
		newPolicy("low", -10, true),
		newPolicy("tie first", 5, true),
		newPolicy("top disabled", 100, false),
		newPolicy("tie second", 5, true),
		newPolicy("zero", 0, false),
		newPolicy("high", 50, true),
	} {
		if err := st.CreatePolicy(ctx, p); err != nil {
			t.Fatal(err)
		}
		// Creation times order ties; make each distinct at the store's
		// microsecond resolution without sleeping.
		for store.Now().Equal(p.CreatedAt) {
		}
	}
	all, err := st.ListPolicies(ctx)
	if err != nil {
		t.Fatal(err)
	}
	wantAll := []string{"top disabled", "high", "tie first", "tie second", "zero", "low"}
	if got := policyNames(all); !slices.Equal(got, wantAll) {
		t.Fatalf("ListPolicies order %v, want %v", got, wantAll)
	}
	enabled, err := st.ListEnabledPolicies(ctx)
	if err != nil {
		t.Fatal(err)
	}
	wantEnabled := []string{"high", "tie first", "tie second", "low"}
	if got := policyNames(enabled); !slices.Equal(got, wantEnabled) {
		t.Fatalf("ListEnabledPolicies order %v, want %v", got, wantEnabled)
	}
	for i := 1; i < len(all); i++ {
		if store.ComparePolicies(&all[i-1], &all[i]) >= 0 {
			t.Fatalf("ComparePolicies disagrees with the SQL order at %d: %v", i, wantAll)
		}
	}
}

func TestComparePoliciesTieBreaks(t *testing.T) {
	at := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	cases := []struct {
		name string
		a, b store.Policy
		want int
	}{
		{"higher priority first", store.Policy{Priority: 2}, store.Policy{Priority: 1, CreatedAt: at.Add(-time.Hour)}, -1},
		{"older first", store.Policy{CreatedAt: at}, store.Policy{CreatedAt: at.Add(-time.Second)}, 1},
		{"id last", store.Policy{ID: "a", CreatedAt: at}, store.Policy{ID: "b", CreatedAt: at}, -1},
		{"same", store.Policy{ID: "a", CreatedAt: at}, store.Policy{ID: "a", CreatedAt: at}, 0},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := store.ComparePolicies(&tc.a, &tc.b); got != tc.want {
				t.Fatalf("ComparePolicies = %d, want %d", got, tc.want)
			}
		})
	}
}
