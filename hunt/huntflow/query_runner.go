package huntflow

import (
	"time"

	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"

	"github.com/vigil-soc/vigil/hunt"
	"github.com/vigil-soc/vigil/hunt/huntact"
)

// LocalQueriesVersion is the version of Run from which a query whose
// timeout_secs is at most LocalQueryMaxSecs runs as a local activity: in
// the worker that runs the workflow, inside the workflow task that
// scheduled it, so a short run is one workflow task from start to end
// instead of a trip through the server's matching for the query and
// another workflow task for its result. Longer queries stay heartbeating
// activities. Runs started before it replay with activities only.
const LocalQueriesVersion = 1

// LocalQueryMaxSecs is the longest query timeout that runs as a local
// activity. A local activity cannot heartbeat; it is retried from the
// start when its worker dies (noticed within the workflow task timeout),
// and while it runs the workflow sees a timer (max_runtime_secs) only at
// the workflow task's own heartbeat, every few seconds. Both are fine for
// a query of seconds, not for one of minutes.
const LocalQueryMaxSecs = 30

// queryRunner answers how this run executes one query: a local activity
// for a short one (from LocalQueriesVersion), otherwise an activity that
// heartbeats while the query runs and can be cancelled.
func queryRunner(ctx workflow.Context) func(ctx workflow.Context, pq hunt.PlannedQuery, in huntact.QueryInput) workflow.Future {
	local := workflow.GetVersion(ctx, "hunt-local-queries", workflow.DefaultVersion, LocalQueriesVersion) == LocalQueriesVersion
	return func(ctx workflow.Context, pq hunt.PlannedQuery, in huntact.QueryInput) workflow.Future {
		timeout := time.Duration(pq.TimeoutSecs)*time.Second + 30*time.Second
		retry := &temporal.RetryPolicy{MaximumAttempts: 3}
		if local && pq.TimeoutSecs > 0 && pq.TimeoutSecs <= LocalQueryMaxSecs {
			return workflow.ExecuteLocalActivity(workflow.WithLocalActivityOptions(ctx, workflow.LocalActivityOptions{
				StartToCloseTimeout: timeout, RetryPolicy: retry, Summary: "query " + pq.Name}), acts.RunQuery, in)
		}
		return workflow.ExecuteActivity(workflow.WithActivityOptions(ctx, workflow.ActivityOptions{
			StartToCloseTimeout: timeout,
			HeartbeatTimeout:    30 * time.Second,
			RetryPolicy:         retry,
			Summary:             "query " + pq.Name,
		}), acts.RunQuery, in)
	}
}
