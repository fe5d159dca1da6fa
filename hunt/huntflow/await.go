package huntflow

import (
	"context"

	"go.temporal.io/sdk/client"

	"github.com/vigil-soc/vigil/store"
)

// Await waits for a started run to end. It answers the workflow's result
// when that came first, and nil with no error when the run's record showed
// the outcome first: the record is the run's last write (FinishRun, in its
// last workflow task), made before the server has recorded the workflow's
// end and answered the long poll for its result, and when the run's worker
// shares this process the store wakes the caller as soon as that write is
// committed. A skipped run has no record: its result answers.
func Await(ctx context.Context, run client.WorkflowRun, st *store.Store, runID string) (*Result, error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	ended, stop := st.WatchHuntRun(runID)
	defer stop()
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
	select {
	case o := <-done:
		return o.res, o.err
	case <-ended:
		return nil, nil
	}
}
