package main

import (
	"testing"
	"time"

	"github.com/vigil-soc/vigil/bench/internal/verdict"
	"github.com/vigil-soc/vigil/store"
)

func TestListVerdictJudgesOnlyAMillionOnPostgres(t *testing.T) {
	fast := stats{Ops: 100, Elapsed: time.Second, P50: 5 * time.Millisecond, P99: 15 * time.Millisecond}
	slow := fast
	slow.P99 = 25 * time.Millisecond
	broken := fast
	broken.Failures = 1
	base := stats{Ops: 100, Elapsed: time.Second, P99: 5 * time.Millisecond}
	cases := []struct {
		name    string
		dialect store.Dialect
		seed    int
		s       stats
		met     string
	}{
		{"PostgreSQL at a million, fast", store.DialectPostgres, 1_000_000, fast, "yes"},
		{"PostgreSQL at a million, slow", store.DialectPostgres, 1_000_000, slow, "no"},
		{"PostgreSQL at a million, a failure", store.DialectPostgres, 1_000_000, broken, "no"},
		{"PostgreSQL with a smaller seed", store.DialectPostgres, 100_000, fast, verdict.NotJudged("seed 100000")},
		{"SQLite", store.DialectSQLite, 1_000_000, fast, verdict.NotJudged("SQLite")},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			v := listVerdict(config{Seed: c.seed}, c.dialect, "list", result{Stats: c.s, Base: &base})
			if v.Met != c.met {
				t.Fatalf("met %q, want %q", v.Met, c.met)
			}
			if v.Ratio != float64(c.s.P99)/float64(base.P99) || v.RatioOf != verdict.OfP99 {
				t.Fatalf("ratio %v %s, want the p99 ratio", v.Ratio, v.RatioOf)
			}
		})
	}
}

func TestDatabaseVerdictsJudgeIntakeAndAutoTriage(t *testing.T) {
	sec := section{Title: "PostgreSQL"}
	insert := stats{Ops: 4000, Elapsed: time.Second, P99: 40 * time.Millisecond}
	roundTrip := stats{Ops: 100, Elapsed: time.Second}
	sec.add(result{ID: "1w", Stats: insert})
	sec.add(result{ID: "2w", Stats: stats{Ops: 2500, Elapsed: time.Second, P99: 45 * time.Millisecond}, Base: &insert})
	sec.add(result{ID: "6w", Stats: stats{Ops: 85, Elapsed: time.Second}, Base: &roundTrip})
	got := databaseVerdicts(config{IntakeC: 64}, store.DialectPostgres, sec)
	want := []string{"yes", "no"}
	if len(got) != len(want) {
		t.Fatalf("%d verdicts, want %d: %+v", len(got), len(want), got)
	}
	for i, v := range got {
		if v.Met != want[i] {
			t.Errorf("%s: met %q, want %q", v.Path, v.Met, want[i])
		}
	}
}

func TestAutoTriageIsNotJudgedAgainstAStalledBaseline(t *testing.T) {
	healthy := stats{Ops: 600, Elapsed: 10 * time.Second, P50: 240 * time.Millisecond, P99: 350 * time.Millisecond}
	stalledBase := healthy
	stalledBase.Elapsed, stalledBase.P99 = 70*time.Second, 61*time.Second
	for _, c := range []struct {
		name string
		base stats
		ops  int
		met  string
	}{
		{"healthy baseline, goal met", healthy, 600, "yes"},
		{"healthy baseline, goal missed", healthy, 300, "no"},
		{"stalled baseline flatters the ratio", stalledBase, 300, verdict.NotJudged("baseline stalled: p99 61000.00 ms against p50 240.00 ms")},
		{"stalled baseline, goal missed anyway", stalledBase, 30, "no"},
	} {
		t.Run(c.name, func(t *testing.T) {
			sec := section{Title: "PostgreSQL"}
			sec.add(result{ID: "6w", Stats: stats{Ops: c.ops, Elapsed: 10 * time.Second}, Base: &c.base})
			got := databaseVerdicts(config{}, store.DialectPostgres, sec)
			if len(got) != 1 || got[0].Met != c.met {
				t.Fatalf("verdicts %+v, want met %q", got, c.met)
			}
		})
	}
}
