// Package huntact holds the activities of hunt runs: every side effect of
// a run (reading the hunt, querying data sources, storing findings).
package huntact

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/google/uuid"
	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/temporal"

	"github.com/vigil-soc/vigil/content"
	"github.com/vigil-soc/vigil/hunt"
	"github.com/vigil-soc/vigil/hunt/datasource"
	"github.com/vigil-soc/vigil/secrets"
	"github.com/vigil-soc/vigil/store"
)

// Error types of hunt activities that retrying cannot fix.
const (
	ErrTypeInvalidHunt  = "InvalidHunt"
	ErrTypeQueryTimeout = "QueryTimeout"
	ErrTypeQueryFailed  = "QueryFailed"
	ErrTypeRefused      = "OutboundRefused"
)

// DefaultLookback is the window of a run that names none and has no
// earlier successful run.
const DefaultLookback = 24 * time.Hour

// DefaultMaxRuntime bounds a run whose hunt sets no max_runtime_secs.
const DefaultMaxRuntime = time.Hour

// staleRunMargin is how long past its max runtime a run still recorded
// as running is taken to be running (its finish may be retried); after
// that its workflow ended without recording an outcome.
const staleRunMargin = 10 * time.Minute

// Activities run hunts against the data sources in the store.
type Activities struct {
	Store   *store.Store
	Secrets *secrets.Box
	Sources datasource.Options
	Metrics *Metrics

	sources  sourceCache
	policies runPolicies
}

// PrepareInput names the run to prepare.
type PrepareInput struct {
	HuntID     string
	RunID      string
	WorkflowID string
	Trigger    string
	From, To   time.Time // zero: from the hunt's last success or lookback, to now
	Params     map[string]any
}

// PrepareResult is the run's record and resolved queries.
type PrepareResult struct {
	RunID          string
	HuntName       string
	From, To       time.Time
	Queries        []hunt.PlannedQuery
	MaxRuntimeSecs int
	Skip           string // non-empty: the hunt must not run now, and why
	// InProgress is the run of the hunt still running that made an
	// on-demand run skip (Skip says so too).
	InProgress string
}

// PrepareRun records the run (once per workflow) and resolves its queries.
func (a *Activities) PrepareRun(ctx context.Context, in PrepareInput) (PrepareResult, error) {
	h, err := a.Store.GetHunt(ctx, in.HuntID)
	if err != nil {
		return PrepareResult{}, temporal.NewNonRetryableApplicationError("hunt "+in.HuntID+": "+err.Error(), ErrTypeInvalidHunt, err)
	}
	out := PrepareResult{HuntName: h.Name, MaxRuntimeSecs: h.Schedule.V.MaxRuntimeSecs}
	if in.Trigger != "manual" && h.Status != "active" {
		out.Skip = "hunt is " + h.Status
		return out, nil
	}
	plan, err := hunt.PlanWith(h, hunt.StoredKinds(ctx, a.Store), content.QueryLookup(ctx, a.Store))
	if err != nil {
		return out, temporal.NewNonRetryableApplicationError(err.Error(), ErrTypeInvalidHunt, err)
	}
	for i := range plan {
		for k, v := range in.Params {
			if _, taken := plan[i].Params[k]; !taken {
				if plan[i].Params == nil {
					plan[i].Params = map[string]any{}
				}
				plan[i].Params[k] = v
			}
		}
	}
	from, to := in.From, in.To
	if to.IsZero() {
		to = store.Now()
	}
	if from.IsZero() {
		from = to.Add(-DefaultLookback)
		if lb := h.Schedule.V.LookbackMinutes; lb > 0 {
			from = to.Add(-time.Duration(lb) * time.Minute)
		}
		if h.HuntType == "continuous" && h.LastSuccessTo != nil && h.LastSuccessTo.Before(to) {
			from = *h.LastSuccessTo
		}
	}
	runID := in.RunID
	if runID == "" {
		runID = hunt.RunIDOf(in.WorkflowID)
	}
	rec := &store.HuntRun{ID: runID, HuntID: h.ID, WorkflowID: in.WorkflowID,
		RunTrigger: in.Trigger, WindowFrom: from, WindowTo: to, QueryResults: store.NewJSON([]store.QueryResult{})}
	var run *store.HuntRun
	if in.Trigger == "manual" {
		// On-demand runs of one hunt do not overlap, as its schedule's
		// runs do not (overlap policy skip).
		var busy *store.HuntRun
		run, busy, err = a.Store.StartHuntRunAlone(ctx, rec, store.Now().Add(-MaxRuntime(h.Schedule.V.MaxRuntimeSecs)-staleRunMargin))
		if err == nil && busy != nil {
			out.Skip, out.InProgress = "run "+busy.ID+" of the hunt is still running", busy.ID
			return out, nil
		}
	} else {
		run, err = a.Store.StartHuntRun(ctx, rec)
	}
	if err != nil {
		return out, err
	}
	out.RunID, out.From, out.To, out.Queries = run.ID, run.WindowFrom, run.WindowTo, plan
	return out, nil
}

// MaxRuntime is how long a run may take given its hunt's
// max_runtime_secs: that many seconds, or DefaultMaxRuntime when unset.
func MaxRuntime(secs int) time.Duration {
	if secs > 0 {
		return time.Duration(secs) * time.Second
	}
	return DefaultMaxRuntime
}

// QueryInput is one query of a run.
type QueryInput struct {
	HuntID, RunID string
	From, To      time.Time
	Query         hunt.PlannedQuery
}

// QueryOutput is what one query found.
type QueryOutput struct {
	Result   store.QueryResult
	Critical int
	New      int
}

// RunQuery runs one query, heartbeating while it runs, and records the
// rows above the baseline as findings.
func (a *Activities) RunQuery(ctx context.Context, in QueryInput) (QueryOutput, error) {
	q := in.Query
	res := store.QueryResult{Index: q.Index, Name: q.Name, DataSource: q.DataSource, QueryType: q.QueryType}
	d, err := a.Store.GetDataSource(ctx, q.DataSource)
	if err != nil {
		return QueryOutput{}, temporal.NewNonRetryableApplicationError(fmt.Sprintf("query %q: data source %s: %v", q.Name, q.DataSource, err), ErrTypeInvalidHunt, err)
	}
	src, err := a.sources.get(d, a.Secrets, a.Sources)
	if err != nil {
		return QueryOutput{}, temporal.NewNonRetryableApplicationError(fmt.Sprintf("query %q: %v", q.Name, err), ErrTypeInvalidHunt, err)
	}

	ctx = datasource.WithOutbound(ctx, a.policies.forRun(in.RunID, a.Sources.Outbound))
	stop := heartbeat(ctx)
	start := time.Now()
	rows, err := src.Run(ctx, datasource.Request{Query: q.Query, Params: q.Params, From: in.From, To: in.To,
		Timeout: time.Duration(q.TimeoutSecs) * time.Second})
	stop()
	res.DurationMs = time.Since(start).Milliseconds()
	switch {
	case errors.Is(err, datasource.ErrQueryTimeout):
		return QueryOutput{}, temporal.NewNonRetryableApplicationError(
			fmt.Sprintf("query %q timed out after %ds", q.Name, q.TimeoutSecs), ErrTypeQueryTimeout, err)
	case errors.Is(err, datasource.ErrRefused):
		return QueryOutput{}, temporal.NewNonRetryableApplicationError(fmt.Sprintf("query %q: %v", q.Name, err), ErrTypeRefused, err)
	case err != nil:
		return QueryOutput{}, temporal.NewApplicationError(fmt.Sprintf("query %q: %v", q.Name, err), ErrTypeQueryFailed, err)
	}
	res.Matches, res.Truncated = len(rows.Rows), rows.Truncated
	out := QueryOutput{Result: res}
	if float64(len(rows.Rows)) <= q.Baseline {
		out.Result.BelowBase = true
		return out, nil
	}
	key := q.Name + "\x00" + q.Query
	findings := make([]store.HuntFinding, 0, len(rows.Rows))
	for _, row := range rows.Rows {
		fp := hunt.Fingerprint(key, q.Keys, row)
		findings = append(findings, store.HuntFinding{ID: uuid.NewString(), QueryIndex: q.Index, QueryName: q.Name,
			Query: q.Query, Severity: hunt.RowSeverity(row, q.SeverityField, q.Severity), Fingerprint: fp,
			Evidence: store.NewJSON(hunt.Evidence(row))})
	}
	stored, err := a.Store.RecordFindings(ctx, in.HuntID, in.RunID, findings)
	if err != nil {
		return QueryOutput{}, err
	}
	for _, f := range stored {
		if f.Severity == "critical" {
			out.Critical++
		}
		if f.New(in.RunID) {
			out.New++
		}
		a.Metrics.finding(f.Severity)
	}
	out.Result.Findings = len(stored)
	return out, nil
}

// heartbeat reports liveness every few seconds until stopped, so a worker
// that dies mid-query is noticed within the heartbeat timeout.
func heartbeat(ctx context.Context) func() {
	done := make(chan struct{})
	go func() {
		t := time.NewTicker(5 * time.Second)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-ctx.Done():
				return
			case <-t.C:
				activity.RecordHeartbeat(ctx)
			}
		}
	}()
	return func() { close(done) }
}

// FinishInput is a run's outcome.
type FinishInput struct {
	HuntID, RunID string
	Status        string
	Error         string
	Results       []store.QueryResult
	Total         int
	Critical      int
	New           int
	DurationMs    int64
	To            time.Time
}

// FinishRun records the run's outcome and moves its hunt, in one
// transaction: a finished on_demand hunt is completed; a failed run fails
// the hunt only when it says so. The run's record is written last, so
// whoever sees the outcome there (huntflow.Await) sees the hunt moved too.
func (a *Activities) FinishRun(ctx context.Context, in FinishInput) error {
	a.policies.done(in.RunID)
	err := a.Store.EndHuntRun(ctx, in.HuntID, &store.HuntRun{ID: in.RunID, Status: in.Status, Error: in.Error,
		QueryResults: store.NewJSON(in.Results), TotalFindings: in.Total, CriticalFindings: in.Critical,
		NewFindings: in.New, DurationMs: in.DurationMs}, in.To)
	if err != nil {
		return err
	}
	a.Metrics.run(in.Status, time.Duration(in.DurationMs)*time.Millisecond)
	return nil
}
