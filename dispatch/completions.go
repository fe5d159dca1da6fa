package dispatch

import (
	"context"
	"time"

	"github.com/vigil-soc/vigil/internal/groupcommit"
	"github.com/vigil-soc/vigil/store"
)

// completionTimeout bounds the statement that marks a batch of entries done.
const completionTimeout = 30 * time.Second

// maxCompletionBatch bounds how many entries one statement marks done.
const maxCompletionBatch = 256

// completions marks handled queue entries done in shared statements:
// entries handled side by side (the triage starts of a burst of alerts)
// are marked done together, one commit for all of them instead of one
// each. At most one batch is written at a time; entries finished while it
// commits form the next. Each caller waits for its own batch's commit, so
// an entry counts as done only once that is durable, as before; a crash
// before it leaves the entry queued, and handling it again joins what it
// already did.
type completions struct {
	batches *groupcommit.Batcher[store.IntakeCompletion, error]
}

func newCompletions(st *store.Store) *completions {
	return &completions{batches: &groupcommit.Batcher[store.IntakeCompletion, error]{
		MaxBatch: maxCompletionBatch, MaxWriters: 1, Timeout: completionTimeout,
		Write: func(ctx context.Context, done []store.IntakeCompletion) []error {
			err := st.CompleteIntakes(ctx, done)
			out := make([]error, len(done))
			for i := range out {
				out[i] = err
			}
			return out
		}}}
}

// complete marks seq done with its incident and returns once that is
// committed, or with the error that kept it from being.
func (c *completions) complete(seq int64, incidentID string) error {
	return c.batches.Do(store.IntakeCompletion{Seq: seq, IncidentID: incidentID})[0]
}
