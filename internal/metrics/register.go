// Package metrics holds the one helper Vigil's packages share for
// registering Prometheus collectors.
package metrics

import (
	"errors"
	"fmt"

	"github.com/prometheus/client_golang/prometheus"
)

// Register adds c to reg, or returns the equal collector already there, so
// that several instances in one process (workers restarted in tests, say)
// share their series. A nil reg leaves c unregistered but usable. A clash
// with a different metric of the same name is a programming error and
// panics, as MustRegister would.
func Register[C prometheus.Collector](reg prometheus.Registerer, c C) C {
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
	panic(fmt.Errorf("register metric: %w", err))
}
