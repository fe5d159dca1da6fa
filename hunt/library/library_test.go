package library_test

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/vigil-soc/vigil/hunt/datasource"
	"github.com/vigil-soc/vigil/hunt/events"
	"github.com/vigil-soc/vigil/hunt/huntest"
	"github.com/vigil-soc/vigil/hunt/library"
)

// planted is, for each query, the values of its first key column that the
// demo data's malicious rows must produce, and nothing else.
var planted = map[string][]string{
	"ia-risky-attachment":     {"bob@examplecorp.com"},
	"ia-lookalike-sender":     {"examplecorp-support.com"},
	"ia-remote-access-abroad": {"carol"},
	"ex-office-spawns-shell":  {"ws-02"},
	"ex-encoded-powershell":   {"ws-03"},
	"ex-proxy-binary-remote":  {"ws-04"},
	"pe-scheduled-task":       {"ws-01"},
	"pe-run-key":              {"ws-05"},
	"pe-startup-folder":       {"ws-03"},
	"ca-brute-force":          {"svc-backup"},
	"ca-password-spray":       {"198.51.100.23"},
	"ca-lsass-dump":           {"ws-02"},
	"lm-psexec":               {"srv-db1"},
	"lm-rdp-fan-out":          {"ws-04"},
	"lm-wmi-remote-exec":      {"ws-01"},
	"co-encrypted-archive":    {"ws-05"},
	"co-mass-file-read":       {"dave"},
	"co-forward-external":     {"erin@examplecorp.com"},
	"c2-beaconing":            {"ws-05"},
	"c2-nxdomain-burst":       {"ws-04"},
	"c2-dns-tunnel":           {"ws-02"},
	"exf-large-upload":        {"ws-01"},
	"exf-file-sharing-upload": {"ws-03"},
	"exf-rclone":              {"ws-05"},
}

func TestLibraryShape(t *testing.T) {
	all := library.All()
	if len(all) < 24 {
		t.Fatalf("library has %d queries, want at least 24", len(all))
	}
	per := map[string]int{}
	seen := map[string]bool{}
	for _, q := range all {
		per[q.Category]++
		if seen[q.ID] {
			t.Errorf("duplicate id %s", q.ID)
		}
		seen[q.ID] = true
		if len(q.MitreTechniques) == 0 || q.SQL == "" || q.SPL == "" || q.Severity == "" || len(q.Keys) == 0 {
			t.Errorf("%s lacks techniques, templates, severity or keys", q.ID)
		}
		if _, ok := planted[q.ID]; !ok {
			t.Errorf("%s has no planted evidence in the demo data", q.ID)
		}
	}
	for _, c := range library.Categories {
		if per[c] < 3 {
			t.Errorf("category %s has %d queries, want 3", c, per[c])
		}
	}
}

// TestLibraryFindsPlantedRows runs every SQL template, unchanged, on each
// engine over the demo data: it must find the planted malicious rows and
// none of the benign ones (near misses included).
func TestLibraryFindsPlantedRows(t *testing.T) {
	now := time.Now().UTC()
	for _, eng := range huntest.Engines(t) {
		t.Run(eng.Name, func(t *testing.T) {
			ctx := context.Background()
			if err := events.CreateSchema(ctx, eng.DB, eng.Name); err != nil {
				t.Fatal(err)
			}
			if _, err := events.Load(ctx, eng.DB, eng.Name, events.Demo(now, 1)); err != nil {
				t.Fatal(err)
			}
			src, err := datasource.Open(datasource.Config{Kind: datasource.KindSQL, Settings: eng.Settings}, datasource.Options{})
			if err != nil {
				t.Fatal(err)
			}
			defer func() { _ = src.Close() }()
			for _, q := range library.All() {
				params, err := q.Bind(nil)
				if err != nil {
					t.Fatal(err)
				}
				res, err := src.Run(ctx, datasource.Request{Query: q.SQL, Params: params, From: now.Add(-24 * time.Hour), To: now})
				if err != nil {
					t.Errorf("%s: %v", q.ID, err)
					continue
				}
				var got []string
				for _, row := range res.Rows {
					for _, k := range q.Keys {
						if _, ok := row[k]; !ok {
							t.Errorf("%s: result lacks key column %s", q.ID, k)
						}
					}
					got = append(got, fmt.Sprint(row[q.Keys[0]]))
				}
				sort.Strings(got)
				got = slices.Compact(got)
				if !slices.Equal(got, planted[q.ID]) {
					t.Errorf("%s found %v, want %v", q.ID, got, planted[q.ID])
				}
			}
		})
	}
}

// TestSPLTemplates sends every rendered SPL template to the Splunk peer,
// which refuses a search that does not reference each key field of the
// query and its sourcetype.
func TestSPLTemplates(t *testing.T) {
	var want []string
	peer := huntest.SplunkPeer(t, "tok", func(search string) error {
		for _, f := range want {
			if !strings.Contains(search, f) {
				return fmt.Errorf("search does not reference %s", f)
			}
		}
		if strings.Contains(search, "$") {
			return fmt.Errorf("unfilled token in %s", search)
		}
		return nil
	}, []map[string]any{{"host": "ws-01"}})
	src, err := datasource.Open(datasource.Config{Kind: datasource.KindSIEMSearch,
		Settings: map[string]any{"url": peer.URL}, Credentials: map[string]string{"token": "tok"}}, huntest.LocalPeers())
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	for _, q := range library.All() {
		params, _ := q.Bind(nil)
		want = append(slices.Clone(q.Keys), "sourcetype=")
		if _, err := src.Run(context.Background(), datasource.Request{Query: q.RenderSPL(params), From: now.Add(-time.Hour), To: now}); err != nil {
			t.Errorf("%s: %v", q.ID, err)
		}
	}
	if n := len(peer.Requests()); n != len(library.All()) {
		t.Fatalf("peer accepted %d searches", n)
	}
}

func TestBindParams(t *testing.T) {
	q, _ := library.Get("ca-brute-force")
	got, err := q.Bind(map[string]any{"min_failures": float64(3)})
	if err != nil || got["min_failures"] != int64(3) {
		t.Fatalf("bind = %v, %v", got, err)
	}
	if _, err := q.Bind(map[string]any{"min_failures": "many"}); err == nil {
		t.Fatal("a non-number was accepted")
	}
	if _, err := q.Bind(map[string]any{"nope": 1}); err == nil {
		t.Fatal("an unknown parameter was accepted")
	}
	if s := q.RenderSPL(got); !strings.HasSuffix(s, "where failures >= 3") {
		t.Fatalf("SPL not rendered: %s", s)
	}
}
