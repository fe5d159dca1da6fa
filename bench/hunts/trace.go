package main

import (
	"context"
	"fmt"
	"strings"
	"time"

	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/sdk/client"
)

// traceRun prints a finished run's history as offsets from the moment the
// caller asked for the start (t0), then when the caller had its result
// (end): where the run's time went between the caller, the server and the
// worker.
func traceRun(ctx context.Context, c client.Client, workflowID string, t0, end time.Time) error {
	it := c.GetWorkflowHistory(ctx, workflowID, "", false, enumspb.HISTORY_EVENT_FILTER_TYPE_ALL_EVENT)
	fmt.Printf("trace of %s (offsets from the caller's start):\n", workflowID)
	prev := t0
	for it.HasNext() {
		ev, err := it.Next()
		if err != nil {
			return err
		}
		at := ev.GetEventTime().AsTime()
		name := strings.TrimPrefix(ev.GetEventType().String(), "EVENT_TYPE_")
		if m := ev.GetMarkerRecordedEventAttributes(); m != nil {
			name += " " + m.GetMarkerName()
		}
		fmt.Printf("  %8s  +%-8s %s\n", at.Sub(t0).Round(100*time.Microsecond), at.Sub(prev).Round(100*time.Microsecond), name)
		prev = at
	}
	fmt.Printf("  %8s  +%-8s caller has the result\n", end.Sub(t0).Round(100*time.Microsecond), end.Sub(prev).Round(100*time.Microsecond))
	return nil
}
