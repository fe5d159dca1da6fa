package store_test

import (
	"context"
	"slices"
	"testing"

	"github.com/vigil-soc/vigil/internal/testenv"
	"github.com/vigil-soc/vigil/store"
)

// Deeper pages find their keys before their rows; whatever the sort and
// filter, the pages laid end to end must be the one long page.
func TestDeepPagesMatchOneLongPage(t *testing.T) {
	st := testenv.OpenStore(t)
	ctx := context.Background()
	sevs := []string{"low", "critical", "medium", "high"}
	for i := range 23 {
		if _, err := st.CreateIncident(ctx, newIncident(sevs[i%len(sevs)])); err != nil {
			t.Fatal(err)
		}
	}
	ids := func(rows []store.Incident) []string {
		out := make([]string, len(rows))
		for i := range rows {
			out[i] = rows[i].ID
		}
		return out
	}
	for _, f := range []store.IncidentFilter{
		{}, {Sort: "-severity"}, {Sort: "severity"}, {Sort: "incident_number"}, {Sort: "-updated_at"},
		{Severity: "critical"}, {Sort: "-severity", Status: store.StatusOpen},
	} {
		long := f
		long.Page, long.PerPage = 1, 100
		all, total, err := st.ListIncidents(ctx, long)
		if err != nil {
			t.Fatal(err)
		}
		var paged []string
		for p := 1; p <= 6; p++ {
			f.Page, f.PerPage = p, 4
			rows, n, err := st.ListIncidents(ctx, f)
			if err != nil || n != total {
				t.Fatalf("%+v: total %d, want %d, %v", f, n, total, err)
			}
			paged = append(paged, ids(rows)...)
		}
		if !slices.Equal(paged, ids(all)) {
			t.Fatalf("sort %q filter %q/%q: pages %v, want %v", f.Sort, f.Severity, f.Status, paged, ids(all))
		}
	}
}
