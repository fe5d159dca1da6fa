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

const bareQueue = "bench-bare"

// bareActivity does nothing; it measures the engine's activity round trip.
func bareActivity(context.Context) error { return nil }

// bareWaitForSignal completes when it receives one signal.
func bareWaitForSignal(ctx workflow.Context) error {
	workflow.GetSignalChannel(ctx, "go").Receive(ctx, nil)
	return nil
}

// bareOneActivity runs one activity.
func bareOneActivity(ctx workflow.Context) error {
	ctx = workflow.WithActivityOptions(ctx, workflow.ActivityOptions{StartToCloseTimeout: time.Minute})
	return workflow.ExecuteActivity(ctx, bareActivity).Get(ctx, nil)
}

// bareSequence runs n activities one after another.
func bareSequence(ctx workflow.Context, n int) error {
	ctx = workflow.WithActivityOptions(ctx, workflow.ActivityOptions{StartToCloseTimeout: time.Minute})
	for range n {
		if err := workflow.ExecuteActivity(ctx, bareActivity).Get(ctx, nil); err != nil {
			return err
		}
	}
	return nil
}

func bareWorker(c client.Client) (worker.Worker, error) {
	w := worker.New(c, bareQueue, worker.Options{})
	w.RegisterWorkflow(bareWaitForSignal)
	w.RegisterWorkflow(bareOneActivity)
	w.RegisterWorkflow(bareSequence)
	w.RegisterActivity(bareActivity)
	return w, w.Start()
}

// bareSignalRoundTrip measures signal sent → waiting workflow completed.
// It returns the operation after starting n waiting workflows on a worker
// that runs until stop is called.
func bareSignalRoundTrip(ctx context.Context, c client.Client, n int) (op func(i int) error, stop func(), err error) {
	w, err := bareWorker(c)
	if err != nil {
		return nil, nil, err
	}
	runs := make([]client.WorkflowRun, n)
	for i := range runs {
		runs[i], err = c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: "bench-signal-" + uuid.NewString(), TaskQueue: bareQueue}, bareWaitForSignal)
		if err != nil {
			w.Stop()
			return nil, nil, err
		}
	}
	return func(i int) error {
		if err := c.SignalWorkflow(ctx, runs[i].GetID(), "", "go", nil); err != nil {
			return err
		}
		return runs[i].Get(ctx, nil)
	}, w.Stop, nil
}

// bareWorkflowWithActivity measures start → completed of a workflow with
// one activity.
func bareWorkflowWithActivity(ctx context.Context, c client.Client, n, conc int) (row, error) {
	w, err := bareWorker(c)
	if err != nil {
		return row{}, err
	}
	defer w.Stop()
	return measure("bare workflow + one activity, start to completion", n, conc, func(int) error {
		run, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: "bench-act-" + uuid.NewString(), TaskQueue: bareQueue}, bareOneActivity)
		if err != nil {
			return err
		}
		return run.Get(ctx, nil)
	})
}

// bareSequentialActivities reports the cost of one more sequential
// activity inside a workflow, in milliseconds.
func bareSequentialActivities(ctx context.Context, c client.Client, n int) (float64, error) {
	w, err := bareWorker(c)
	if err != nil {
		return 0, err
	}
	defer w.Stop()
	t0 := time.Now()
	run, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: "bench-seq-" + uuid.NewString(), TaskQueue: bareQueue}, bareSequence, n)
	if err != nil {
		return 0, err
	}
	if err := run.Get(ctx, nil); err != nil {
		return 0, fmt.Errorf("bare sequence: %w", err)
	}
	return float64(time.Since(t0).Microseconds()) / 1000 / float64(n), nil
}
