package api

import (
	"context"
	"sync"
	"time"

	"github.com/vigil-soc/vigil/store"
)

// maxAlertBatch bounds how many alerts share one commit.
const maxAlertBatch = 128

// alertBatchTimeout bounds one batch's transaction.
const alertBatchTimeout = 30 * time.Second

// groupCommit writes the incidents of concurrent alerts in shared
// transactions. Alerts that arrive while a batch commits wait for the next
// batch instead of for a connection and a commit each; a batch is never
// held back waiting for company. Each alert is answered only after the
// commit that holds it returned, so nothing is acknowledged before it is
// durable.
type groupCommit struct {
	mu      sync.Mutex
	pending []*pendingAlert
	running int // committers at work
}

// maxCommitters is how many batches may be in flight at once: while one
// commits, the next does its replay records and look-ups, then queues on
// the counter row the first holds until its commit.
const maxCommitters = 2

type pendingAlert struct {
	alert store.AlertIncident
	out   store.AlertOutcome
	done  chan struct{}
}

// createFromAlerts creates (or joins) the incidents of a delivery's
// alerts in the next batch, together and in order, and waits for the
// commit. The batch is not the request's: a sender that hangs up does not
// roll back the alerts it shares it with.
func (s *server) createFromAlerts(as []store.AlertIncident) []store.AlertOutcome {
	g := &s.commits
	ps := make([]*pendingAlert, len(as))
	for i, a := range as {
		ps[i] = &pendingAlert{alert: a, done: make(chan struct{})}
	}
	g.mu.Lock()
	g.pending = append(g.pending, ps...)
	if g.running < maxCommitters {
		g.running++
		go s.commitBatches()
	}
	g.mu.Unlock()
	out := make([]store.AlertOutcome, len(ps))
	for i, p := range ps {
		<-p.done
		out[i] = p.out
	}
	return out
}

// commitBatches commits what is pending, batch after batch, until nothing
// is left.
func (s *server) commitBatches() {
	g := &s.commits
	for {
		g.mu.Lock()
		n := min(len(g.pending), maxAlertBatch)
		if n == 0 {
			g.running--
			g.mu.Unlock()
			return
		}
		batch := g.pending[:n:n]
		g.pending = g.pending[n:]
		g.mu.Unlock()
		alerts := make([]store.AlertIncident, n)
		for i, p := range batch {
			alerts[i] = p.alert
		}
		ctx, cancel := context.WithTimeout(context.Background(), alertBatchTimeout)
		outs := s.store.CreateIncidentsFromAlerts(ctx, alerts)
		cancel()
		for i, p := range batch {
			p.out = outs[i]
			close(p.done)
		}
	}
}
