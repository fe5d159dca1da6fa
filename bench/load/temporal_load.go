package main

import (
	"context"
	"fmt"
	"time"

	"github.com/google/uuid"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/worker"
	"go.temporal.io/sdk/workflow"
)

// Task queues of the Temporal baselines, apart from Vigil's queue so the
// baselines never meet Vigil's worker and vice versa.
const (
	unpolledQueue        = "bench-unpolled"
	roundTripQueue       = "bench-roundtrip"
	unregisteredWorkflow = "BenchNeverRegistered"
)

// benchInput has the shape of Vigil's TriageInput (two UUIDs), so payload
// encoding costs the same on both sides of a ratio.
type benchInput struct {
	IncidentID string
	TriageID   string
}

func newBenchInput() benchInput {
	return benchInput{IncidentID: uuid.NewString(), TriageID: uuid.NewString()}
}

// echoWorkflow is the least a workflow with an activity can do: schedule
// one activity and return its result.
func echoWorkflow(ctx workflow.Context, in benchInput) (string, error) {
	ctx = workflow.WithActivityOptions(ctx, workflow.ActivityOptions{StartToCloseTimeout: 30 * time.Second})
	var out string
	err := workflow.ExecuteActivity(ctx, echoActivity, in).Get(ctx, &out)
	return out, err
}

func echoActivity(_ context.Context, in benchInput) (string, error) { return in.TriageID, nil }

// bareStartOp is baseline 5a: ExecuteWorkflow of a type no worker knows, on
// a queue nobody polls, so the time is the server persisting a start and
// nothing else. The runs stay open; the dev server is discarded afterwards.
func bareStartOp(tc client.Client, runID string) opFunc {
	return func(ctx context.Context, i int) error {
		_, err := tc.ExecuteWorkflow(ctx, client.StartWorkflowOptions{
			ID:        fmt.Sprintf("bench-start/%s/%d", runID, i),
			TaskQueue: unpolledQueue,
		}, unregisteredWorkflow, newBenchInput())
		return err
	}
}

// roundTripOp is baseline 5b: start echoWorkflow and wait for its result,
// the floor under any workflow-backed request that waits for completion.
func roundTripOp(tc client.Client, runID string) opFunc {
	return func(ctx context.Context, i int) error {
		run, err := tc.ExecuteWorkflow(ctx, client.StartWorkflowOptions{
			ID:        fmt.Sprintf("bench-roundtrip/%s/%d", runID, i),
			TaskQueue: roundTripQueue,
		}, echoWorkflow, newBenchInput())
		if err != nil {
			return err
		}
		var out string
		return run.Get(ctx, &out)
	}
}

// temporalResults holds the two Temporal baselines.
type temporalResults struct {
	BareStart, RoundTrip stats
}

// measureTemporal runs baselines 5a and 5b on the shared dev server and
// returns the round-trip baseline still running, so each database section
// can measure 5b again beside its own triage rows; the caller stops it.
func measureTemporal(ctx context.Context, cfg config, tc client.Client) (temporalResults, *roundTripBaseline, error) {
	var res temporalResults
	runID := uuid.NewString()[:8]
	var err error
	progress("temporal", "5a bare ExecuteWorkflow, %d starts at concurrency %d", cfg.N, cfg.C)
	res.BareStart, err = measure(ctx, load{N: cfg.N, Concurrency: cfg.C, Warmup: cfg.Warmup}, bareStartOp(tc, runID))
	if err != nil {
		return res, nil, fmt.Errorf("bare ExecuteWorkflow: %w", err)
	}
	progressStats("temporal", res.BareStart)

	rt, err := startRoundTrip(tc)
	if err != nil {
		return res, nil, err
	}
	progress("temporal", "5b workflow + activity round trip, %d runs at concurrency %d", cfg.TriageN, cfg.C)
	if res.RoundTrip, err = measure(ctx, load{N: cfg.TriageN, Concurrency: cfg.C, Warmup: cfg.Warmup}, rt.op()); err != nil {
		rt.stop()
		return res, nil, fmt.Errorf("workflow round trip: %w", err)
	}
	progressStats("temporal", res.RoundTrip)
	return res, rt, nil
}

// roundTripBaseline is baseline 5b, ready to be measured again: its
// worker polls its own queue until stop. The worker uses default options,
// as app.NewWorker does, so the comparison with Vigil's triage isolates
// Vigil's own work.
type roundTripBaseline struct {
	tc client.Client
	w  worker.Worker
}

// startRoundTrip starts the worker of baseline 5b.
func startRoundTrip(tc client.Client) (*roundTripBaseline, error) {
	w := worker.New(tc, roundTripQueue, worker.Options{})
	w.RegisterWorkflow(echoWorkflow)
	w.RegisterActivity(echoActivity)
	if err := w.Start(); err != nil {
		return nil, fmt.Errorf("start round-trip worker: %w", err)
	}
	return &roundTripBaseline{tc: tc, w: w}, nil
}

// op is one round trip of 5b; each call numbers its workflows afresh.
func (b *roundTripBaseline) op() opFunc { return roundTripOp(b.tc, uuid.NewString()[:8]) }

func (b *roundTripBaseline) stop() { b.w.Stop() }
