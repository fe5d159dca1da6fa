package dispatch

import (
	"context"
	"sync"
	"time"

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
	st      *store.Store
	mu      sync.Mutex
	pending []*pendingCompletion
	writing bool
}

type pendingCompletion struct {
	done store.IntakeCompletion
	err  error
	ok   chan struct{}
}

// complete marks seq done with its incident and returns once that is
// committed, or with the error that kept it from being.
func (c *completions) complete(seq int64, incidentID string) error {
	p := &pendingCompletion{done: store.IntakeCompletion{Seq: seq, IncidentID: incidentID}, ok: make(chan struct{})}
	c.mu.Lock()
	c.pending = append(c.pending, p)
	if !c.writing {
		c.writing = true
		go c.write()
	}
	c.mu.Unlock()
	<-p.ok
	return p.err
}

// write commits what is pending, batch after batch, until nothing is left.
// A batch is not any one caller's: it runs on its own context, so a caller
// that gives up does not fail the others.
func (c *completions) write() {
	for {
		c.mu.Lock()
		n := min(len(c.pending), maxCompletionBatch)
		if n == 0 {
			c.writing = false
			c.mu.Unlock()
			return
		}
		batch := c.pending[:n:n]
		c.pending = c.pending[n:]
		c.mu.Unlock()
		done := make([]store.IntakeCompletion, n)
		for i, p := range batch {
			done[i] = p.done
		}
		ctx, cancel := context.WithTimeout(context.Background(), completionTimeout)
		err := c.st.CompleteIntakes(ctx, done)
		cancel()
		for _, p := range batch {
			p.err = err
			close(p.ok)
		}
	}
}
