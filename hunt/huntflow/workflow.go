// Package huntflow is the hunt run workflow: it resolves a hunt's queries,
// runs them in parallel (bounded) as heartbeating activities, records
// findings, and ends within the hunt's max_runtime_secs.
package huntflow

import (
	"errors"
	"fmt"
	"time"

	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"

	"github.com/vigil-soc/vigil/hunt/huntact"
	"github.com/vigil-soc/vigil/store"
	"github.com/vigil-soc/vigil/workflows"
)

// Names shared with the API.
const (
	// ProgressQuery answers the run's Progress.
	ProgressQuery = "progress"
	// DefaultParallelism bounds the queries of one run running at once.
	DefaultParallelism = 4
)

// WorkflowID is the ID of an on-demand or triggered run.
func WorkflowID(huntID, runID string) string { return "hunt/" + huntID + "/" + runID }

// Input starts a run. A scheduled run leaves RunID empty and takes its run
// ID from its workflow ID.
type Input struct {
	HuntID      string
	RunID       string
	Trigger     string // manual, scheduled, continuous, triggered
	From, To    time.Time
	Params      map[string]any
	Parallelism int
}

// Result is a finished run.
type Result struct {
	RunID            string              `json:"run_id"`
	Status           string              `json:"status"`
	Error            string              `json:"error,omitempty"`
	TotalFindings    int                 `json:"total_findings"`
	CriticalFindings int                 `json:"critical_findings"`
	NewFindings      int                 `json:"new_findings"`
	DurationMs       int64               `json:"duration_ms"`
	Queries          []store.QueryResult `json:"queries"`
	Skipped          string              `json:"skipped,omitempty"`
	// RunInProgress is the run whose being still running made this
	// on-demand run skip.
	RunInProgress string `json:"run_in_progress,omitempty"`
}

// Progress is what the progress query answers.
type Progress struct {
	RunID    string `json:"run_id"`
	Total    int    `json:"queries_total"`
	Done     int    `json:"queries_done"`
	Findings int    `json:"findings"`
}

var acts *huntact.Activities

// Run is the hunt run workflow.
func Run(ctx workflow.Context, in Input) (Result, error) {
	start := workflow.Now(ctx)
	info := workflow.GetInfo(ctx)
	prog := Progress{RunID: in.RunID}
	if err := workflow.SetQueryHandler(ctx, ProgressQuery, func() (Progress, error) { return prog, nil }); err != nil {
		return Result{}, err
	}
	book := bookkeeping(ctx)
	query := queryRunner(ctx)
	var plan huntact.PrepareResult
	err := book(ctx, 5, acts.PrepareRun, huntact.PrepareInput{HuntID: in.HuntID, RunID: in.RunID,
		WorkflowID: info.WorkflowExecution.ID, Trigger: in.Trigger, From: in.From, To: in.To, Params: in.Params}).Get(ctx, &plan)
	if err != nil {
		return Result{}, err
	}
	if plan.Skip != "" {
		return Result{Status: "skipped", Skipped: plan.Skip, RunInProgress: plan.InProgress}, nil
	}
	prog.RunID, prog.Total = plan.RunID, len(plan.Queries)
	if err := workflow.UpsertTypedSearchAttributes(ctx, workflows.SearchHuntName.ValueSet(plan.HuntName)); err != nil {
		return Result{}, err
	}
	maxRuntime := huntact.MaxRuntime(plan.MaxRuntimeSecs)
	par := in.Parallelism
	if par <= 0 {
		par = DefaultParallelism
	}

	runCtx, cancel := workflow.WithCancel(ctx)
	results := make([]store.QueryResult, len(plan.Queries))
	var out Result
	var failure string
	pending, next := 0, 0
	sel := workflow.NewSelector(ctx)
	timedOut := false
	sel.AddFuture(workflow.NewTimer(runCtx, maxRuntime), func(f workflow.Future) {
		if f.Get(ctx, nil) == nil {
			timedOut = true
		}
	})
	launch := func(q int) {
		pq := plan.Queries[q]
		f := query(runCtx, pq, huntact.QueryInput{HuntID: in.HuntID, RunID: plan.RunID, From: plan.From, To: plan.To, Query: pq})
		pending++
		sel.AddFuture(f, func(f workflow.Future) {
			pending--
			prog.Done++
			var qo huntact.QueryOutput
			if err := f.Get(ctx, &qo); err != nil {
				results[q] = store.QueryResult{Index: pq.Index, Name: pq.Name, DataSource: pq.DataSource,
					QueryType: pq.QueryType, Error: errorMessage(err)}
				if failure == "" {
					failure = errorMessage(err)
				}
				return
			}
			results[q] = qo.Result
			out.TotalFindings += qo.Result.Findings
			out.CriticalFindings += qo.Critical
			out.NewFindings += qo.New
			prog.Findings = out.TotalFindings
		})
	}
	for next < len(plan.Queries) && next < par {
		launch(next)
		next++
	}
	for pending > 0 && !timedOut {
		sel.Select(ctx)
		if next < len(plan.Queries) && pending < par && !timedOut {
			launch(next)
			next++
		}
	}
	cancel()
	out.RunID, out.Queries = plan.RunID, results
	out.Status = store.HuntRunCompleted
	switch {
	case timedOut:
		out.Status, out.Error = store.HuntRunFailed, fmt.Sprintf("max_runtime_secs exceeded: the run was stopped after %v", maxRuntime)
	case failure != "":
		out.Status, out.Error = store.HuntRunFailed, failure
	}
	out.DurationMs = workflow.Now(ctx).Sub(start).Milliseconds()
	dctx, _ := workflow.NewDisconnectedContext(ctx)
	err = book(dctx, 10, acts.FinishRun, huntact.FinishInput{
		HuntID: in.HuntID, RunID: plan.RunID, Status: out.Status, Error: out.Error, Results: results,
		Total: out.TotalFindings, Critical: out.CriticalFindings, New: out.NewFindings, DurationMs: out.DurationMs, To: plan.To,
	}).Get(ctx, nil)
	return out, err
}

// LocalBookkeepingVersion is the version of Run from which preparing and
// finishing a run are local activities: a few store reads and writes
// each, run in the worker that runs the workflow, so a run costs two
// fewer round trips through the server (activity task scheduled, polled,
// completed, and a workflow task after each). Runs started before it
// replay with regular activities.
const LocalBookkeepingVersion = 1

// bookkeeping answers how this run executes its short store steps:
// local activities, or regular ones for runs started before
// LocalBookkeepingVersion.
func bookkeeping(ctx workflow.Context) func(ctx workflow.Context, attempts int32, fn any, arg any) workflow.Future {
	local := workflow.GetVersion(ctx, "hunt-local-bookkeeping", workflow.DefaultVersion, LocalBookkeepingVersion) == LocalBookkeepingVersion
	return func(ctx workflow.Context, attempts int32, fn any, arg any) workflow.Future {
		retry := &temporal.RetryPolicy{MaximumAttempts: attempts}
		if local {
			return workflow.ExecuteLocalActivity(workflow.WithLocalActivityOptions(ctx, workflow.LocalActivityOptions{
				StartToCloseTimeout: 30 * time.Second, RetryPolicy: retry}), fn, arg)
		}
		return workflow.ExecuteActivity(workflow.WithActivityOptions(ctx, workflow.ActivityOptions{
			StartToCloseTimeout: 30 * time.Second, RetryPolicy: retry}), fn, arg)
	}
}

// errorMessage is the application error's own message, without the
// activity wrapping around it.
func errorMessage(err error) string {
	var appErr *temporal.ApplicationError
	if errors.As(err, &appErr) {
		return appErr.Error()
	}
	return err.Error()
}
