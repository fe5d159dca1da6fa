package main

import (
	"context"
	"database/sql"
	"fmt"
	"io"
	"slices"
	"time"

	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/api/history/v1"
	"go.temporal.io/sdk/client"
	"google.golang.org/protobuf/proto"

	"github.com/vigil-soc/vigil/store"
)

// phaseSample bounds how many of row 6w's runs have their histories read.
const phaseSample = 200

// verdictPhases is where one alert's wait for its verdict went, from the
// incident's creation (store clock) through its triage run's history
// (engine clock; both run on this machine).
type verdictPhases struct {
	Queued time.Duration // incident created → triage run started (intake queue, dispatcher, start call)
	// TaskWait is the run's start → its first workflow task started: with
	// an eager start both are stamped while the start is handled, so the
	// start call's own wait shows in FirstTask.
	TaskWait  time.Duration
	FirstTask time.Duration // first workflow task started → verdict stored (the start's answer, then the quick steps)
	TaskDone  time.Duration // verdict stored → first workflow task completed
	AfterRun  time.Duration // verdict stored → run closed (starting the actions); -1 while open
	Tasks     int           // workflow tasks the run took so far
	Children  []string      // the action runs it started
}

// eventCounts tallies history events by type over the runs read.
type eventCounts struct {
	runs   int
	events map[enumspb.EventType]int
	bytes  map[enumspb.EventType]int
}

// addRun counts one run's events.
func (c *eventCounts) addRun(events []*history.HistoryEvent) {
	if c.events == nil {
		c.events, c.bytes = map[enumspb.EventType]int{}, map[enumspb.EventType]int{}
	}
	c.runs++
	for _, ev := range events {
		c.events[ev.GetEventType()]++
		c.bytes[ev.GetEventType()] += proto.Size(ev)
	}
}

// print writes the events per run, most frequent first.
func (c *eventCounts) print(w io.Writer, what string) {
	if c.runs == 0 {
		return
	}
	total, size := 0, 0
	types := make([]enumspb.EventType, 0, len(c.events))
	for t, n := range c.events {
		types = append(types, t)
		total += n
		size += c.bytes[t]
	}
	slices.SortFunc(types, func(a, b enumspb.EventType) int { return c.events[b] - c.events[a] })
	fmt.Fprintf(w, "  history events per %s run (%d runs): %.1f, %.0f bytes\n", what, c.runs,
		float64(total)/float64(c.runs), float64(size)/float64(c.runs))
	for _, t := range types {
		fmt.Fprintf(w, "    %-50s %.2f (%.0f bytes)\n", t.String(), float64(c.events[t])/float64(c.runs),
			float64(c.bytes[t])/float64(c.runs))
	}
}

// reportPhases reads the histories of up to phaseSample of row 6w's runs
// accepted since from and prints each phase's p50 and p99, so a slow
// verdict rate can be traced to the queue, the engine or the quick steps.
func reportPhases(ctx context.Context, w io.Writer, tc client.Client, db *sql.DB, dialect store.Dialect, from time.Time) error {
	runs, err := verdictRuns(ctx, db, dialect, from)
	if err != nil {
		return err
	}
	step := max(1, len(runs)/phaseSample)
	var (
		got             []verdictPhases
		triages, action eventCounts
		open            int // runs still open at the deadline, counted as they stood
		deadline        = time.Now().Add(time.Minute)
	)
	for i := 0; i < len(runs); i += step {
		if !awaitClosed(ctx, tc, runs[i].WorkflowID, deadline) {
			open++
		}
		p, err := runPhases(ctx, tc, runs[i], &triages)
		if err != nil {
			return err
		}
		got = append(got, p)
		for _, id := range p.Children {
			if !awaitClosed(ctx, tc, id, deadline) {
				open++
			}
			if err := countEvents(ctx, tc, id, &action); err != nil {
				return err
			}
		}
	}
	if len(got) == 0 {
		return fmt.Errorf("phases: no measured run")
	}
	fmt.Fprintf(w, "6w phases over %d of %d runs (p50 / p99):\n", len(got), len(runs))
	first, last := runs[0], runs[len(runs)-1]
	fmt.Fprintf(w, "  incidents created over %s; verdicts stored over %s from the first incident\n",
		ms(last.Created.Sub(first.Created)), ms(lastVerdict(runs).Sub(first.Created)))
	for _, ph := range []struct {
		name string
		of   func(verdictPhases) time.Duration
	}{
		{"incident created → run started", func(p verdictPhases) time.Duration { return p.Queued }},
		{"run started → first workflow task started", func(p verdictPhases) time.Duration { return p.TaskWait }},
		{"first workflow task started → verdict stored", func(p verdictPhases) time.Duration { return p.FirstTask }},
		{"verdict stored → first task completed", func(p verdictPhases) time.Duration { return p.TaskDone }},
		{"verdict stored → run closed", func(p verdictPhases) time.Duration { return p.AfterRun }},
	} {
		ds := make([]time.Duration, len(got))
		for i, p := range got {
			ds[i] = ph.of(p)
		}
		ds = slices.DeleteFunc(ds, func(d time.Duration) bool { return d < 0 })
		slices.Sort(ds)
		if len(ds) == 0 {
			fmt.Fprintf(w, "  %-40s no run closed yet\n", ph.name)
			continue
		}
		fmt.Fprintf(w, "  %-40s %s / %s\n", ph.name, ms(percentile(ds, 50)), ms(percentile(ds, 99)))
	}
	tasks := 0
	for _, p := range got {
		tasks += p.Tasks
	}
	fmt.Fprintf(w, "  workflow tasks per run: %.2f\n", float64(tasks)/float64(len(got)))
	if open > 0 {
		fmt.Fprintf(w, "  runs still open a minute after the report began (counted as they stood): %d\n", open)
	}
	triages.print(w, "triage")
	action.print(w, "action")
	return nil
}

// runPhases reads one run's history, adds it to counts and splits the
// run's wait into phases.
func runPhases(ctx context.Context, tc client.Client, r verdictRun, counts *eventCounts) (verdictPhases, error) {
	events, err := readHistory(ctx, tc, r.WorkflowID)
	if err != nil {
		return verdictPhases{}, err
	}
	counts.addRun(events)
	return phasesOf(r, events)
}

// phasesOf splits a run's wait for its verdict into phases by its history.
func phasesOf(r verdictRun, events []*history.HistoryEvent) (verdictPhases, error) {
	var started, firstTask, firstDone, closed time.Time
	p := verdictPhases{AfterRun: -1}
	for _, ev := range events {
		at := ev.GetEventTime().AsTime()
		switch ev.GetEventType() {
		case enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_STARTED:
			started = at
		case enumspb.EVENT_TYPE_WORKFLOW_TASK_STARTED:
			if firstTask.IsZero() {
				firstTask = at
			}
			p.Tasks++
		case enumspb.EVENT_TYPE_WORKFLOW_TASK_COMPLETED:
			if firstDone.IsZero() {
				firstDone = at
			}
		case enumspb.EVENT_TYPE_START_CHILD_WORKFLOW_EXECUTION_INITIATED:
			p.Children = append(p.Children, ev.GetStartChildWorkflowExecutionInitiatedEventAttributes().GetWorkflowId())
		default:
			if isClose(ev) {
				closed = at
			}
		}
	}
	if started.IsZero() || firstTask.IsZero() || firstDone.IsZero() {
		return verdictPhases{}, fmt.Errorf("phases: run %s has a verdict but no completed workflow task", r.WorkflowID)
	}
	p.Queued = started.Sub(r.Created)
	p.TaskWait = firstTask.Sub(started)
	p.FirstTask = r.Verdict.Sub(firstTask)
	p.TaskDone = firstDone.Sub(r.Verdict)
	if !closed.IsZero() {
		p.AfterRun = closed.Sub(r.Verdict)
	}
	return p, nil
}

// readHistory reads a run's whole history.
func readHistory(ctx context.Context, tc client.Client, workflowID string) ([]*history.HistoryEvent, error) {
	var events []*history.HistoryEvent
	it := tc.GetWorkflowHistory(ctx, workflowID, "", false, enumspb.HISTORY_EVENT_FILTER_TYPE_ALL_EVENT)
	for it.HasNext() {
		ev, err := it.Next()
		if err != nil {
			return nil, fmt.Errorf("phases: history of %s: %w", workflowID, err)
		}
		events = append(events, ev)
	}
	return events, nil
}

// isClose reports whether ev ends its run.
func isClose(ev *history.HistoryEvent) bool {
	switch ev.GetEventType() {
	case enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_COMPLETED, enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_FAILED,
		enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_TIMED_OUT, enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_TERMINATED,
		enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_CANCELED, enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_CONTINUED_AS_NEW:
		return true
	}
	return false
}

// countEvents adds one run's history to counts.
func countEvents(ctx context.Context, tc client.Client, workflowID string, counts *eventCounts) error {
	events, err := readHistory(ctx, tc, workflowID)
	if err != nil {
		return err
	}
	counts.addRun(events)
	return nil
}

// awaitClosed waits until deadline (one for the whole report) for a run
// to close, so its whole history is counted, and reports whether it did;
// a run that failed counts as closed.
func awaitClosed(ctx context.Context, tc client.Client, workflowID string, deadline time.Time) bool {
	wctx, cancel := context.WithDeadline(ctx, deadline)
	defer cancel()
	_ = tc.GetWorkflow(wctx, workflowID, "").Get(wctx, nil) // a failed run is closed all the same
	return wctx.Err() == nil
}

// lastVerdict is when the last of runs stored its verdict.
func lastVerdict(runs []verdictRun) time.Time {
	var t time.Time
	for _, r := range runs {
		if r.Verdict.After(t) {
			t = r.Verdict
		}
	}
	return t
}
