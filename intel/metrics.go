package intel

import (
	"errors"
	"fmt"

	"github.com/prometheus/client_golang/prometheus"
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
		hits: register(reg, prometheus.NewCounter(prometheus.CounterOpts{
			Name: "cache_hits_total",
			Help: "Threat-intelligence lookups answered from the cache.",
		})),
		misses: register(reg, prometheus.NewCounter(prometheus.CounterOpts{
			Name: "cache_misses_total",
			Help: "Threat-intelligence lookups not in the cache or expired there, sent to the source.",
		})),
		size: register(reg, prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "cache_size",
			Help: "Rows in the threat-intelligence cache, fresh or expired, as of the last write.",
		})),
	}
}

// register adds c to reg, or returns the equal collector already there, so
// that several Enrichers in one process share their counters. A nil reg
// leaves c unregistered but usable. A clash with a different metric of the
// same name is a programming error and panics, as MustRegister would.
func register[C prometheus.Collector](reg prometheus.Registerer, c C) C {
	if reg == nil {
		return c
	}
	err := reg.Register(c)
	if err == nil {
		return c
	}
	var are prometheus.AlreadyRegisteredError
	if errors.As(err, &are) {
		if existing, ok := are.ExistingCollector.(C); ok {
			return existing
		}
	}
	panic(fmt.Errorf("register intel metric: %w", err))
}
