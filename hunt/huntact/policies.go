package huntact

import (
	"context"
	"sync"
	"time"

	"github.com/vigil-soc/vigil/outbound"
)

// runPolicies reads the outbound policy once per run, when the run's
// first HTTP query needs it, for all the run's queries in this worker: a
// policy an admin changes holds from the next run (or the next query of a
// run resumed elsewhere), and a run over SQL sources never reads it.
type runPolicies struct {
	mu sync.Mutex
	m  map[string]*runPolicy
}

type runPolicy struct {
	once   sync.Once
	policy outbound.Policy
	added  time.Time
}

// forRun answers the run's policy getter; read reads the setting.
func (r *runPolicies) forRun(runID string, read func(context.Context) outbound.Policy) func(context.Context) outbound.Policy {
	r.mu.Lock()
	defer r.mu.Unlock()
	now := time.Now()
	rp, ok := r.m[runID]
	if !ok {
		if r.m == nil {
			r.m = map[string]*runPolicy{}
		}
		// Runs whose finish ran in another worker are dropped once no
		// run could still be going.
		for id, old := range r.m {
			if now.Sub(old.added) > DefaultMaxRuntime+staleRunMargin {
				delete(r.m, id)
			}
		}
		rp = &runPolicy{added: now}
		r.m[runID] = rp
	}
	return func(ctx context.Context) outbound.Policy {
		rp.once.Do(func() {
			if read != nil {
				rp.policy = read(ctx)
			}
		})
		return rp.policy
	}
}

// done forgets a finished run.
func (r *runPolicies) done(runID string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	delete(r.m, runID)
}
