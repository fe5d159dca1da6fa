package intel

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/vigil-soc/vigil/store"
	"github.com/vigil-soc/vigil/triage"
)

// DefaultMaxLookups is how many indicators one Enrich call rates unless
// WithMaxLookups says otherwise.
const DefaultMaxLookups = 50

// Enricher rates an incident's indicators through a Source, with a cache in
// the store. It is safe for concurrent use.
type Enricher struct {
	st         *store.Store
	src        Source
	now        func() time.Time
	maxLookups int
	m          metrics
}

// Option configures an Enricher.
type Option func(*Enricher)

// WithClock replaces the wall clock that decides freshness and stamps
// CheckedAt; tests use it to step past a TTL.
func WithClock(now func() time.Time) Option {
	return func(e *Enricher) {
		if now != nil {
			e.now = now
		}
	}
}

// WithMaxLookups caps the indicators rated per Enrich call (cache hits
// included), bounding source quota, database work and the size of what is
// handed to analyzers. n < 1 keeps the default.
func WithMaxLookups(n int) Option {
	return func(e *Enricher) {
		if n >= 1 {
			e.maxLookups = n
		}
	}
}

// NewEnricher returns an Enricher over the intel_cache table of st, asking
// src on a miss. Its metrics (cache_hits_total, cache_misses_total,
// cache_size) are registered on reg unless reg is nil; collectors already
// registered there by another Enricher are shared.
func NewEnricher(st *store.Store, src Source, reg prometheus.Registerer, opts ...Option) *Enricher {
	e := &Enricher{st: st, src: src, now: time.Now, maxLookups: DefaultMaxLookups, m: newMetrics(reg)}
	for _, o := range opts {
		o(e)
	}
	return e
}

// typeOrder is the priority when the cap cuts indicators: a file hash is
// the most decisive and cheapest to rate, a URL names the lure itself, and
// domains and addresses mostly repeat what the URLs already showed.
var typeOrder = []string{triage.IndicatorHash, triage.IndicatorURL, triage.IndicatorDomain, triage.IndicatorIP}

// Enrich rates ind's URLs, domains, IP addresses and hashes. E-mail
// addresses are skipped: reputation services rate their domains, which
// extraction already lists. Invalid values and values longer than 2048 bytes
// are skipped too. Over the cap, indicators are taken round-robin across
// types in typeOrder, each type in sorted order, so every kind of evidence
// gets a share. Fresh cache rows are served as they are (CheckedAt is when
// they were fetched); the rest are looked up and written back.
//
// The result is sorted by type, then value. When some lookups fail, Enrich
// still returns every reputation it obtained, with an error naming the
// failures, so callers that treat enrichment as best effort can go on.
func (e *Enricher) Enrich(ctx context.Context, ind triage.Indicators) ([]triage.Reputation, error) {
	keys := e.pick(ind)
	if len(keys) == 0 {
		return []triage.Reputation{}, nil
	}
	cached, err := readCache(ctx, e.st, keys)
	if err != nil {
		return nil, err
	}
	out := make([]triage.Reputation, 0, len(keys))
	var fresh []cacheEntry
	var errs []error
	for _, k := range keys {
		now := e.now().UTC().Truncate(time.Microsecond)
		if row, ok := cached[k]; ok && now.Before(row.ExpiresAt) {
			e.m.hits.Inc()
			out = append(out, row.Reputation.V)
			continue
		}
		e.m.misses.Inc()
		if err := ctx.Err(); err != nil {
			errs = append(errs, err)
			break
		}
		r, err := e.src.Lookup(ctx, k.typ, k.value)
		if err != nil {
			errs = append(errs, fmt.Errorf("look up %s %s: %w", k.typ, k.value, err))
			continue
		}
		r = sanitize(r, e.src, k.typ, k.value, now)
		out = append(out, r)
		fresh = append(fresh, cacheEntry{
			IndicatorType: k.typ, IndicatorValue: k.value, Reputation: store.NewJSON(r),
			FetchedAt: now, ExpiresAt: now.Add(TTL(k.typ)),
		})
	}
	if err := e.remember(ctx, fresh); err != nil {
		errs = append(errs, err)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Type != out[j].Type {
			return out[i].Type < out[j].Type
		}
		return out[i].Value < out[j].Value
	})
	if len(errs) > 0 {
		return out, fmt.Errorf("threat intelligence enrichment incomplete: %w", errors.Join(errs...))
	}
	return out, nil
}

// remember writes fresh lookups and refreshes the size gauge. The write
// uses a context that survives cancellation of ctx: the answers were
// already paid for and are correct.
func (e *Enricher) remember(ctx context.Context, rows []cacheEntry) error {
	if len(rows) == 0 {
		return nil
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
	defer cancel()
	if err := writeCache(ctx, e.st, rows); err != nil {
		return err
	}
	n, err := countCache(ctx, e.st)
	if err != nil {
		return err
	}
	e.m.size.Set(float64(n))
	return nil
}

// PurgeExpired deletes cache rows whose freshness ran out, so the table
// does not keep every indicator ever seen, and returns how many it deleted.
// Expired rows are harmless otherwise: a lookup refreshes them in place.
func (e *Enricher) PurgeExpired(ctx context.Context) (int64, error) {
	now := e.now().UTC().Truncate(time.Microsecond)
	res := e.st.DB().WithContext(ctx).Where("expires_at <= ?", now).Delete(&cacheEntry{})
	if res.Error != nil {
		return 0, fmt.Errorf("purge intel cache: %w", res.Error)
	}
	n, err := countCache(ctx, e.st)
	if err != nil {
		return res.RowsAffected, err
	}
	e.m.size.Set(float64(n))
	return res.RowsAffected, nil
}

// pick returns the normalized, distinct indicators to rate, at most
// maxLookups of them.
func (e *Enricher) pick(ind triage.Indicators) []cacheKey {
	lists := map[string][]string{
		triage.IndicatorHash:   ind.Hashes,
		triage.IndicatorURL:    ind.URLs,
		triage.IndicatorDomain: ind.Domains,
		triage.IndicatorIP:     ind.IPs,
	}
	queues := make([][]string, len(typeOrder))
	for i, typ := range typeOrder {
		seen := map[string]bool{}
		for _, v := range lists[typ] {
			if n, ok := normalize(typ, v); ok && !seen[n] {
				seen[n] = true
				queues[i] = append(queues[i], n)
			}
		}
		sort.Strings(queues[i])
	}
	var keys []cacheKey
	for round := 0; len(keys) < e.maxLookups; round++ {
		took := false
		for i, typ := range typeOrder {
			if round < len(queues[i]) && len(keys) < e.maxLookups {
				keys = append(keys, cacheKey{typ, queues[i][round]})
				took = true
			}
		}
		if !took {
			break
		}
	}
	return keys
}
