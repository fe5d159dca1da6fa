package store_test

import (
	"context"
	"strconv"
	"testing"

	"github.com/vigil-soc/vigil/internal/testenv"
	"github.com/vigil-soc/vigil/store"
)

// TestIncidentSearchMatchesNumberPrefixAndTitle checks the search box:
// number prefixes, title words in any case, and wildcards typed by the
// user matching only themselves.
func TestIncidentSearchMatchesNumberPrefixAndTitle(t *testing.T) {
	ctx := context.Background()
	st := testenv.OpenStore(t)
	titles := []string{"Ransomware on fin-ws-042", "Phishing: 100% urgent invoice", "Impossible travel login"}
	var numbers []string
	for _, title := range titles {
		in := newIncident("high")
		in.Title = title
		inc, err := st.CreateIncident(ctx, in)
		if err != nil {
			t.Fatal(err)
		}
		numbers = append(numbers, inc.IncidentNumber)
	}
	for _, tc := range []struct {
		q    string
		want []string
	}{
		{numbers[1], []string{numbers[1]}},
		{"inc-", numbers},
		{"RANSOMWARE", []string{numbers[0]}},
		{"100%", []string{numbers[1]}},
		{"%", []string{numbers[1]}}, // only the title that holds a %
		{"_", nil},
		{"no such words", nil},
	} {
		t.Run(tc.q, func(t *testing.T) {
			rows, total, err := st.ListIncidents(ctx, store.IncidentFilter{Search: tc.q, Page: 1, PerPage: 20})
			if err != nil {
				t.Fatal(err)
			}
			got := map[string]bool{}
			for _, r := range rows {
				got[r.IncidentNumber] = true
			}
			if len(rows) != len(tc.want) || int(total) != len(tc.want) {
				t.Fatalf("q=%q found %v (total %d), want %v", tc.q, got, total, tc.want)
			}
			for _, n := range tc.want {
				if !got[n] {
					t.Fatalf("q=%q misses %s (found %v)", tc.q, n, got)
				}
			}
		})
	}
}

// A search counts its matches with its page; a page past the last match is
// empty and still carries the total.
func TestIncidentSearchTotalOnEveryPage(t *testing.T) {
	ctx := context.Background()
	st := testenv.OpenStore(t)
	for i := range 5 {
		in := newIncident("low")
		in.Title = "beaconing host " + strconv.Itoa(i)
		if _, err := st.CreateIncident(ctx, in); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct{ page, rows int }{{1, 2}, {3, 1}, {4, 0}} {
		rows, total, err := st.ListIncidents(ctx, store.IncidentFilter{Search: "beaconing", Page: tc.page, PerPage: 2})
		if err != nil || len(rows) != tc.rows || total != 5 {
			t.Fatalf("page %d: %d rows, total %d (%v); want %d rows, total 5", tc.page, len(rows), total, err, tc.rows)
		}
	}
}
