package api

import (
	"time"

	"github.com/vigil-soc/vigil/internal/groupcommit"
	"github.com/vigil-soc/vigil/store"
)

// maxAlertBatch bounds how many alerts share one commit.
const maxAlertBatch = 128

// alertBatchTimeout bounds one batch's transaction.
const alertBatchTimeout = 30 * time.Second

// maxCommitters is how many batches may be in flight at once: while one
// commits, the next does its replay records and look-ups, then queues on
// the counter row the first holds until its commit.
const maxCommitters = 2

// newAlertCommits writes the incidents of concurrent alerts in shared
// transactions. Alerts that arrive while a batch commits wait for the next
// batch instead of for a connection and a commit each; each alert is
// answered only after the commit that holds it returned, so nothing is
// acknowledged before it is durable.
func newAlertCommits(st *store.Store) *groupcommit.Batcher[store.AlertIncident, store.AlertOutcome] {
	return &groupcommit.Batcher[store.AlertIncident, store.AlertOutcome]{
		Write: st.CreateIncidentsFromAlerts, MaxBatch: maxAlertBatch, MaxWriters: maxCommitters, Timeout: alertBatchTimeout}
}

// createFromAlerts creates (or joins) the incidents of a delivery's
// alerts in the next batch, together and in order, and waits for the
// commit. The batch is not the request's: a sender that hangs up does not
// roll back the alerts it shares it with.
func (s *server) createFromAlerts(as []store.AlertIncident) []store.AlertOutcome {
	return s.commits.Do(as...)
}
