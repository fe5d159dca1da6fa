package huntflow

import (
	"context"
	"time"

	"go.temporal.io/sdk/client"

	"github.com/vigil-soc/vigil/store"
)

// A caller waiting for a run also reads the run's record this often
// during the first earlyReadFor of its wait.
const (
	earlyReadEvery = 10 * time.Millisecond
	earlyReadFor   = time.Second
)

// Await waits for a started run to end. It answers the workflow's result
// when that came first, and nil with no error when the run's record in
// the store showed the outcome first. The record is the run's last write
// (FinishRun, in its last workflow task), made before the server has
// recorded the workflow's end and answered the wait for its result, a
// long poll; for a short run that hand-off is a good part of its time, so
// for the first second the record is read as well. A skipped run has no
// record: its result answers.
func Await(ctx context.Context, run client.WorkflowRun, st *store.Store, huntID, runID string) (*Result, error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	type outcome struct {
		res *Result
		err error
	}
	done := make(chan outcome, 1)
	go func() {
		var res Result
		err := run.Get(ctx, &res)
		done <- outcome{&res, err}
	}()
	tick := time.NewTicker(earlyReadEvery)
	defer tick.Stop()
	reads, stop := tick.C, time.After(earlyReadFor)
	for {
		select {
		case o := <-done:
			return o.res, o.err
		case <-stop:
			reads = nil
		case <-reads:
			if r, err := st.GetHuntRun(ctx, huntID, runID); err == nil && r.Status != store.HuntRunRunning {
				return nil, nil
			}
		}
	}
}
