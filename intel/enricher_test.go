package intel

import (
	"context"
	"errors"
	"fmt"
	"os"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/vigil-soc/vigil/internal/testenv"
	"github.com/vigil-soc/vigil/store"
	"github.com/vigil-soc/vigil/triage"
)

// forEachDialect runs fn on a fresh SQLite store and, when
// TEST_DATABASE_URL is set, on a fresh PostgreSQL schema too.
func forEachDialect(t *testing.T, fn func(t *testing.T, st *store.Store)) {
	dialects := map[string]string{"sqlite": ""}
	if u := os.Getenv("TEST_DATABASE_URL"); u != "" {
		dialects["postgres"] = u
	}
	for _, name := range []string{"sqlite", "postgres"} {
		base, ok := dialects[name]
		if !ok {
			continue
		}
		t.Run(name, func(t *testing.T) {
			st, cleanup, err := testenv.NewStoreURL(context.Background(), base, t.TempDir())
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(cleanup)
			fn(t, st)
		})
	}
}

// countingSource wraps the simulated source, counts lookups per indicator
// and fails for the values in fail.
type countingSource struct {
	Source
	mu    sync.Mutex
	calls map[string]int
	fail  map[string]bool
}

func newCountingSource(fail ...string) *countingSource {
	c := &countingSource{Source: NewSimulated(), calls: map[string]int{}, fail: map[string]bool{}}
	for _, f := range fail {
		c.fail[f] = true
	}
	return c
}

func (c *countingSource) Lookup(ctx context.Context, typ, value string) (triage.Reputation, error) {
	c.mu.Lock()
	c.calls[typ+" "+value]++
	c.mu.Unlock()
	if c.fail[value] {
		return triage.Reputation{}, errors.New("provider unavailable")
	}
	return c.Source.Lookup(ctx, typ, value)
}

func (c *countingSource) total() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	n := 0
	for _, v := range c.calls {
		n += v
	}
	return n
}

// clock is a settable test clock.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *clock) advance(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

func metricValue(t *testing.T, g prometheus.Gatherer, name string) float64 {
	t.Helper()
	mfs, err := g.Gather()
	if err != nil {
		t.Fatal(err)
	}
	for _, mf := range mfs {
		if mf.GetName() != name {
			continue
		}
		m := mf.GetMetric()[0]
		if c := m.GetCounter(); c != nil {
			return c.GetValue()
		}
		return m.GetGauge().GetValue()
	}
	t.Fatalf("metric %s not registered", name)
	return 0
}

var sampleIndicators = triage.Indicators{
	URLs:    []string{"https://micros0ft-support.com/login/verify?user=jane"},
	Domains: []string{"micros0ft-support.com", "microsoft.com"},
	IPs:     []string{"203.0.113.9"},
	Hashes:  []string{"44d88612fea8a8f36de82e1278abb02f"},
	Emails:  []string{"jane@contoso.com", "security@micros0ft-support.com"},
}

func TestEnrichCachesPerTypeTTL(t *testing.T) {
	forEachDialect(t, func(t *testing.T, st *store.Store) {
		ctx := context.Background()
		clk := &clock{t: time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)}
		src := newCountingSource()
		reg := prometheus.NewRegistry()
		e := NewEnricher(st, src, reg, WithClock(clk.now))

		first, err := e.Enrich(ctx, sampleIndicators)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, r := range first {
			got = append(got, fmt.Sprintf("%s %s %s", r.Type, r.Value, r.Verdict))
			if !r.Simulated || r.Source != SimulatedSourceName || !r.CheckedAt.Equal(clk.now()) {
				t.Errorf("labels: %+v", r)
			}
		}
		want := []string{
			"domain micros0ft-support.com malicious",
			"domain microsoft.com clean",
			"hash 44d88612fea8a8f36de82e1278abb02f malicious",
			"ip 203.0.113.9 unknown",
			"url https://micros0ft-support.com/login/verify?user=jane malicious",
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("results (sorted by type, value):\n%v\nwant\n%v", got, want)
		}
		if src.total() != 5 {
			t.Fatalf("first call made %d lookups, want 5 (emails are skipped)", src.total())
		}
		if h, m, s := metricValue(t, reg, "cache_hits_total"), metricValue(t, reg, "cache_misses_total"), metricValue(t, reg, "cache_size"); h != 0 || m != 5 || s != 5 {
			t.Fatalf("metrics after first call: hits %v misses %v size %v", h, m, s)
		}

		// Within every TTL: all from the cache, identical answers.
		clk.advance(59 * time.Minute)
		again, err := e.Enrich(ctx, sampleIndicators)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(first, again) {
			t.Fatalf("cached answers differ:\n%+v\n%+v", first, again)
		}
		if src.total() != 5 || metricValue(t, reg, "cache_hits_total") != 5 {
			t.Fatalf("second call looked up again: %v", src.calls)
		}

		// Past the URL TTL (1h) only the URL is refreshed, in place.
		clk.advance(2 * time.Minute)
		if _, err := e.Enrich(ctx, sampleIndicators); err != nil {
			t.Fatal(err)
		}
		if src.calls["url https://micros0ft-support.com/login/verify?user=jane"] != 2 || src.total() != 6 {
			t.Fatalf("after 1h01m: %v", src.calls)
		}
		// Past 6h domains and IPs expire; the hash (24h) does not.
		clk.advance(5 * time.Hour)
		if _, err := e.Enrich(ctx, sampleIndicators); err != nil {
			t.Fatal(err)
		}
		if src.calls["domain microsoft.com"] != 2 || src.calls["ip 203.0.113.9"] != 2 || src.calls["hash 44d88612fea8a8f36de82e1278abb02f"] != 1 {
			t.Fatalf("after 6h01m: %v", src.calls)
		}
		clk.advance(18 * time.Hour)
		res, err := e.Enrich(ctx, sampleIndicators)
		if err != nil {
			t.Fatal(err)
		}
		if src.calls["hash 44d88612fea8a8f36de82e1278abb02f"] != 2 {
			t.Fatalf("after 24h01m: %v", src.calls)
		}
		for _, r := range res {
			if r.Type == triage.IndicatorHash && !r.CheckedAt.Equal(clk.now()) {
				t.Errorf("refreshed hash keeps old CheckedAt %s", r.CheckedAt)
			}
		}
		if s := metricValue(t, reg, "cache_size"); s != 5 {
			t.Errorf("refreshes must upsert, cache_size = %v", s)
		}

		// A second Enricher on the same registry shares the collectors.
		e2 := NewEnricher(st, src, reg, WithClock(clk.now))
		before := metricValue(t, reg, "cache_hits_total")
		if _, err := e2.Enrich(ctx, sampleIndicators); err != nil {
			t.Fatal(err)
		}
		if after := metricValue(t, reg, "cache_hits_total"); after != before+5 {
			t.Errorf("shared hits counter: %v -> %v", before, after)
		}
	})
}

func TestEnrichCapsAndSkips(t *testing.T) {
	forEachDialect(t, func(t *testing.T, st *store.Store) {
		ind := triage.Indicators{Emails: []string{"a@b.example"}}
		for i := range 30 {
			ind.Domains = append(ind.Domains, fmt.Sprintf("d%02d.example", i))
			ind.IPs = append(ind.IPs, fmt.Sprintf("198.51.100.%d", i))
		}
		ind.Hashes = []string{"44d88612fea8a8f36de82e1278abb02f", "not-a-hash"}
		ind.URLs = []string{"https://a.example/" + strings.Repeat("x", 3000), "https://b.example/ok"}
		src := newCountingSource()
		e := NewEnricher(st, src, nil, WithMaxLookups(10))
		res, err := e.Enrich(context.Background(), ind)
		if err != nil {
			t.Fatal(err)
		}
		perType := map[string]int{}
		for _, r := range res {
			perType[r.Type]++
		}
		// Round-robin: hash, url, domain, ip, then domain, ip, ... until 10.
		want := map[string]int{"hash": 1, "url": 1, "domain": 4, "ip": 4}
		if !reflect.DeepEqual(perType, want) || src.total() != 10 {
			t.Fatalf("per type %v with %d lookups, want %v", perType, src.total(), want)
		}
		for k := range src.calls {
			if strings.HasPrefix(k, "email") || strings.Contains(k, "xxxx") || strings.Contains(k, "not-a-hash") {
				t.Errorf("looked up %q", k)
			}
		}
		if res[0].Value != "d00.example" || res[3].Value != "d03.example" {
			t.Errorf("each type must be taken in sorted order: %+v", res[:4])
		}

		defaults := NewEnricher(st, newCountingSource(), nil)
		res, err = defaults.Enrich(context.Background(), ind)
		if err != nil || len(res) != DefaultMaxLookups {
			t.Errorf("default cap: %d results, %v", len(res), err)
		}
		empty, err := defaults.Enrich(context.Background(), triage.Indicators{Emails: []string{"x@y.example"}})
		if err != nil || empty == nil || len(empty) != 0 {
			t.Errorf("emails only: %v %v", empty, err)
		}
	})
}

func TestEnrichPartialFailure(t *testing.T) {
	forEachDialect(t, func(t *testing.T, st *store.Store) {
		src := newCountingSource("bad.example")
		reg := prometheus.NewRegistry()
		e := NewEnricher(st, src, reg)
		res, err := e.Enrich(context.Background(), triage.Indicators{Domains: []string{"bad.example", "good.example"}})
		if err == nil || !strings.Contains(err.Error(), "look up domain bad.example: provider unavailable") {
			t.Fatalf("err = %v", err)
		}
		if len(res) != 1 || res[0].Value != "good.example" {
			t.Fatalf("partial result: %+v", res)
		}
		// The failure is not cached: the next call asks again.
		if _, err := e.Enrich(context.Background(), triage.Indicators{Domains: []string{"bad.example", "good.example"}}); err == nil {
			t.Fatal("second call hid the failure")
		}
		if src.calls["domain bad.example"] != 2 || src.calls["domain good.example"] != 1 {
			t.Errorf("calls: %v", src.calls)
		}
		if s := metricValue(t, reg, "cache_size"); s != 1 {
			t.Errorf("cache_size = %v", s)
		}
	})
}

func TestEnrichCancelled(t *testing.T) {
	forEachDialect(t, func(t *testing.T, st *store.Store) {
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		_, err := NewEnricher(st, newCountingSource(), nil).Enrich(ctx, sampleIndicators)
		if !errors.Is(err, context.Canceled) {
			t.Errorf("err = %v, want context.Canceled", err)
		}
	})
}

func TestPurgeExpired(t *testing.T) {
	forEachDialect(t, func(t *testing.T, st *store.Store) {
		ctx := context.Background()
		clk := &clock{t: time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)}
		reg := prometheus.NewRegistry()
		e := NewEnricher(st, newCountingSource(), reg, WithClock(clk.now))
		if _, err := e.Enrich(ctx, sampleIndicators); err != nil {
			t.Fatal(err)
		}
		clk.advance(time.Hour) // exactly the URL TTL: expired
		n, err := e.PurgeExpired(ctx)
		if err != nil || n != 1 {
			t.Fatalf("purge at 1h: %d, %v; want 1", n, err)
		}
		clk.advance(6 * time.Hour)
		if n, err := e.PurgeExpired(ctx); err != nil || n != 3 {
			t.Fatalf("purge at 7h: %d, %v; want 3", n, err)
		}
		if s := metricValue(t, reg, "cache_size"); s != 1 {
			t.Errorf("cache_size = %v, want 1 (the hash)", s)
		}
	})
}
