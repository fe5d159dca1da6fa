// Package intel enriches incident indicators with threat-intelligence
// reputations: a Source answers one lookup at a time and an Enricher serves
// repeated lookups from a cache kept in the store, so triage does not pay a
// provider's latency and quota twice for the same indicator.
package intel

import (
	"context"
	"errors"
	"net/netip"
	"net/url"
	"strings"
	"time"

	"github.com/vigil-soc/vigil/triage"
)

// ErrUnsupportedType means a lookup named an indicator type other than
// hash, url, domain or ip.
var ErrUnsupportedType = errors.New("unsupported indicator type")

// Source answers reputation lookups for single indicators.
type Source interface {
	// Name identifies the source in Reputation.Source.
	Name() string
	// Lookup returns the reputation of value, an indicator of type typ
	// (triage.IndicatorHash, IndicatorURL, IndicatorDomain or IndicatorIP).
	Lookup(ctx context.Context, typ, value string) (triage.Reputation, error)
	// Simulated reports whether answers are offline sample data rather
	// than real intelligence, so every result can be labelled as such.
	Simulated() bool
}

// TTL is how long a reputation of type typ stays fresh in the cache, or 0
// for a type that is never cached. URLs change hands fastest (a compromised
// page is cleaned or a phishing kit moved within hours); domains and
// addresses are re-rated within the day; a file's content never changes, so
// only the verdict on it can, and that settles slowly.
func TTL(typ string) time.Duration {
	switch typ {
	case triage.IndicatorHash:
		return 24 * time.Hour
	case triage.IndicatorURL:
		return time.Hour
	case triage.IndicatorDomain, triage.IndicatorIP:
		return 6 * time.Hour
	}
	return 0
}

// maxValueLen bounds an indicator worth looking up. Longer URLs exist, but
// intelligence services refuse them and a longer value would exceed what a
// PostgreSQL B-tree index entry may hold.
const maxValueLen = 2048

// normalize returns the canonical form of an indicator used as the cache
// key and sent to the source, or false when value is not a valid indicator
// of type typ. Extraction already normalizes most values; this also guards
// values from other callers.
func normalize(typ, value string) (string, bool) {
	value = strings.TrimSpace(value)
	if value == "" || len(value) > maxValueLen {
		return "", false
	}
	switch typ {
	case triage.IndicatorHash:
		value = strings.ToLower(value)
		if n := len(value); (n == 32 || n == 40 || n == 64) && isHex(value) {
			return value, true
		}
	case triage.IndicatorDomain:
		value = strings.TrimSuffix(strings.ToLower(value), ".")
		if value != "" && len(value) <= 253 && !strings.ContainsAny(value, " /:@") {
			return value, true
		}
	case triage.IndicatorIP:
		if addr, err := netip.ParseAddr(value); err == nil {
			return addr.Unmap().WithZone("").String(), true
		}
	case triage.IndicatorURL:
		if u, err := url.Parse(value); err == nil && (u.Scheme == "http" || u.Scheme == "https") && u.Host != "" {
			return value, true
		}
	}
	return "", false
}

func isHex(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f') {
			return false
		}
	}
	return true
}

// sanitize makes a source's answer safe to cache and to show: the indicator
// is the one asked about, the verdict one of the four known words and the
// score within 0..100, and simulated answers are always labelled.
func sanitize(r triage.Reputation, src Source, typ, value string, now time.Time) triage.Reputation {
	r.Type, r.Value = typ, value
	switch r.Verdict {
	case triage.ReputationMalicious, triage.ReputationSuspicious, triage.ReputationClean, triage.ReputationUnknown:
	default:
		r.Verdict = triage.ReputationUnknown
	}
	r.Score = min(100, max(0, r.Score))
	if r.Source == "" {
		r.Source = src.Name()
	}
	r.Simulated = r.Simulated || src.Simulated()
	r.CheckedAt = now
	return r
}
