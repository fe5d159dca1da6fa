package intel

import (
	"github.com/prometheus/client_golang/prometheus"

	promreg "github.com/vigil-soc/vigil/internal/metrics"
)

// metrics are the cache counters. Every Enricher registered on one
// registry shares the same collectors.
type metrics struct {
	hits   prometheus.Counter
	misses prometheus.Counter
	size   prometheus.Gauge
}

func newMetrics(reg prometheus.Registerer) metrics {
	return metrics{
		hits: promreg.Register(reg, prometheus.NewCounter(prometheus.CounterOpts{
			Name: "cache_hits_total",
			Help: "Threat-intelligence lookups answered from the cache.",
		})),
		misses: promreg.Register(reg, prometheus.NewCounter(prometheus.CounterOpts{
			Name: "cache_misses_total",
			Help: "Threat-intelligence lookups not in the cache or expired there, sent to the source.",
		})),
		size: promreg.Register(reg, prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "cache_size",
			Help: "Rows in the threat-intelligence cache, fresh or expired, as of the last write.",
		})),
	}
}
