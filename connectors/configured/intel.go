package configured

import (
	"context"
	"errors"
	"strings"

	"github.com/vigil-soc/vigil/intel"
	"github.com/vigil-soc/vigil/triage"
)

// IntelSource is the threat-intel source of the current configuration:
// every connector serving threat_intel, or the simulated source when none
// does. Of several answers the one with the highest score wins, so one
// provider that knows an indicator is bad is not outvoted.
func (s *Service) IntelSource() intel.Source { return intelSource{s} }

type intelSource struct{ s *Service }

// Name implements intel.Source; answers carry their provider's own name.
func (i intelSource) Name() string {
	b, err := i.s.latest(context.Background())
	if err != nil {
		return "threat-intel"
	}
	names := make([]string, len(b.intel))
	for n, src := range b.intel {
		names[n] = src.Name()
	}
	return strings.Join(names, "+")
}

// Simulated implements intel.Source: true only when every source is.
func (i intelSource) Simulated() bool {
	b, err := i.s.latest(context.Background())
	if err != nil {
		return false
	}
	for _, src := range b.intel {
		if !src.Simulated() {
			return false
		}
	}
	return len(b.intel) > 0
}

// Lookup implements intel.Source.
func (i intelSource) Lookup(ctx context.Context, typ, value string) (triage.Reputation, error) {
	b, err := i.s.current(ctx)
	if err != nil {
		return triage.Reputation{}, err
	}
	var best *triage.Reputation
	var errs []error
	for _, src := range b.intel {
		r, err := src.Lookup(ctx, typ, value)
		if err != nil {
			if !errors.Is(err, intel.ErrUnsupportedType) {
				errs = append(errs, err)
			}
			continue
		}
		if r.Source == "" {
			r.Source = src.Name()
		}
		r.Simulated = r.Simulated || src.Simulated()
		if best == nil || r.Score > best.Score {
			best = &r
		}
	}
	if best != nil {
		return *best, nil
	}
	if len(errs) == 0 {
		return triage.Reputation{}, intel.ErrUnsupportedType
	}
	return triage.Reputation{}, errors.Join(errs...)
}
