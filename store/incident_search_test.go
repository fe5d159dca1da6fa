package store_test

import (
	"context"
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
