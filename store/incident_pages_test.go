package store_test

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"github.com/vigil-soc/vigil/internal/testenv"
	"github.com/vigil-soc/vigil/store"
)

// Deeper pages find where they start before reading their rows; whatever the sort and
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
		{Severity: "critical"}, {Sort: "-severity", Status: store.StatusOpen}, {Sort: "-triaged_at"},
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

// Equality filters read their page from the index the filtered columns
// lead; the rows and their order must be those of the whole list filtered.
func TestEqualityFiltersKeepCreationOrder(t *testing.T) {
	st := testenv.OpenStore(t)
	ctx := context.Background()
	sevs := []string{"low", "critical", "medium", "high"}
	types := []string{"phishing", "malware", "phishing"}
	statuses := []string{store.StatusOpen, store.StatusTriaged, store.StatusResolved, store.StatusResolved, store.StatusOpen}
	for i := range 30 {
		in := newIncident(sevs[i%len(sevs)])
		in.IncidentType = types[i%len(types)]
		inc, err := st.CreateIncident(ctx, in)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := st.UpdateIncident(ctx, inc.ID, store.IncidentUpdate{Status: &statuses[i%len(statuses)]}); err != nil {
			t.Fatal(err)
		}
	}
	for _, sort := range []string{"", "-created_at", "created_at"} {
		all, _, err := st.ListIncidents(ctx, store.IncidentFilter{Sort: sort, Page: 1, PerPage: 100})
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range []store.IncidentFilter{
			{Status: store.StatusResolved}, {Severity: "high"}, {Type: "malware"},
			{Status: store.StatusOpen, Severity: "low"}, {Status: store.StatusResolved, Type: "phishing"},
		} {
			var want []string
			for _, r := range all {
				if (f.Status == "" || r.Status == f.Status) && (f.Severity == "" || r.Severity == f.Severity) &&
					(f.Type == "" || r.IncidentType == f.Type) {
					want = append(want, r.ID)
				}
			}
			var got []string
			for p := 1; p <= 10; p++ {
				f.Sort, f.Page, f.PerPage = sort, p, 3
				rows, total, err := st.ListIncidents(ctx, f)
				if err != nil || int(total) != len(want) {
					t.Fatalf("%+v: total %d, want %d (%v)", f, total, len(want), err)
				}
				for _, r := range rows {
					got = append(got, r.ID)
				}
			}
			if !slices.Equal(got, want) {
				t.Fatalf("%+v: %v, want %v", f, got, want)
			}
		}
	}
}

// TestListRowsCarryTheirFields checks every field a list row carries
// against the incident itself, on a first page, a deeper page read from
// its start row and a deeper page read by id (a nullable sort column).
func TestListRowsCarryTheirFields(t *testing.T) {
	st := testenv.OpenStore(t)
	ctx := context.Background()
	var want []*store.Incident
	for i, sev := range []string{"low", "high"} {
		in := newIncident(sev)
		in.Title = fmt.Sprintf("incident %d", i)
		inc, err := st.CreateIncident(ctx, in)
		if err != nil {
			t.Fatal(err)
		}
		tr, _, err := st.BeginTriage(ctx, inc.ID, false, &store.Triage{ID: fmt.Sprintf("7777777%d-7777-7777-7777-777777777777", i), WorkflowID: "wf"})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := st.CompleteTriage(ctx, tr.ID, store.TriageOutcome{Verdict: store.Verdict{Classification: "benign"}}); err != nil {
			t.Fatal(err)
		}
		if inc, err = st.GetIncident(ctx, inc.ID); err != nil {
			t.Fatal(err)
		}
		want = append(want, inc)
	}
	for _, f := range []store.IncidentFilter{
		{Sort: "created_at", Page: 1, PerPage: 1}, {Sort: "created_at", Page: 2, PerPage: 1}, {Sort: "triaged_at", Page: 2, PerPage: 1},
	} {
		rows, total, err := st.ListIncidents(ctx, f)
		if err != nil || len(rows) != 1 || total != 2 {
			t.Fatalf("%+v: %d rows of %d, %v", f, len(rows), total, err)
		}
		got, w := rows[0], want[f.Page-1]
		if got.ID != w.ID || got.IncidentNumber != w.IncidentNumber || got.Title != w.Title ||
			got.IncidentType != w.IncidentType || got.Severity != w.Severity || got.Status != w.Status ||
			got.Source != w.Source || !got.CreatedAt.Equal(w.CreatedAt) || !got.UpdatedAt.Equal(w.UpdatedAt) ||
			got.TriagedAt == nil || !got.TriagedAt.Equal(*w.TriagedAt) {
			t.Fatalf("%+v: row %+v, want the fields of %+v", f, got, w)
		}
	}
}
