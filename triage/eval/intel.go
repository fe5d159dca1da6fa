package eval

import (
	"context"
	"errors"
	"fmt"
	"sort"

	"github.com/vigil-soc/vigil/intel"
	"github.com/vigil-soc/vigil/triage"
)

// maxIndicatorLen matches the enricher, which skips longer values.
const maxIndicatorLen = 2048

// enrich rates ind through src the way intel.Enricher does, minus its
// cache, which changes when a rating was fetched but not what it says:
// at most intel.DefaultMaxLookups indicators, taken round-robin across
// hashes, URLs, domains and IP addresses, each in sorted order; the result
// sorted by type, then value. Like the service, a failed lookup is left out.
func enrich(ctx context.Context, src intel.Source, ind triage.Indicators) ([]triage.Reputation, error) {
	queues := [][]string{ind.Hashes, ind.URLs, ind.Domains, ind.IPs}
	types := []string{triage.IndicatorHash, triage.IndicatorURL, triage.IndicatorDomain, triage.IndicatorIP}
	for i, q := range queues {
		queues[i] = distinctSorted(q)
	}
	out := []triage.Reputation{}
	var errs []error
	for round := 0; len(out)+len(errs) < intel.DefaultMaxLookups; round++ {
		took := false
		for i, typ := range types {
			if round >= len(queues[i]) || len(out)+len(errs) >= intel.DefaultMaxLookups {
				continue
			}
			took = true
			value := queues[i][round]
			r, err := src.Lookup(ctx, typ, value)
			if err != nil {
				if ctx.Err() != nil {
					return nil, ctx.Err()
				}
				errs = append(errs, fmt.Errorf("look up %s %s: %w", typ, value, err))
				continue
			}
			r.Type, r.Value = typ, value
			if r.Source == "" {
				r.Source = src.Name()
			}
			r.Simulated = r.Simulated || src.Simulated()
			out = append(out, r)
		}
		if !took {
			break
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Type != out[j].Type {
			return out[i].Type < out[j].Type
		}
		return out[i].Value < out[j].Value
	})
	return out, errors.Join(errs...)
}

func distinctSorted(values []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, v := range values {
		if v != "" && len(v) <= maxIndicatorLen && !seen[v] {
			seen[v] = true
			out = append(out, v)
		}
	}
	sort.Strings(out)
	return out
}
