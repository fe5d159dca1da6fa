package api_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"go.temporal.io/api/enums/v1"
	historypb "go.temporal.io/api/history/v1"
	"google.golang.org/protobuf/encoding/protojson"
)

// TestRecordLongPlaybookHistories records every run of a playbook long
// enough to continue as new, first to last, to VIGIL_RECORD_HISTORIES for
// the replay test in workflows/. It is skipped unless that variable names
// a directory.
func TestRecordLongPlaybookHistories(t *testing.T) {
	dir := os.Getenv("VIGIL_RECORD_HISTORIES")
	if dir == "" {
		t.Skip("set VIGIL_RECORD_HISTORIES to a directory to record workflow histories")
	}
	e, _ := runToEnd(t, ticketSteps("long-"+randomSuffix(), 110))
	// Walk back from the last run to the first, then write them in order.
	var runs []*historypb.History
	for runID := ""; ; {
		h := historyOf(t, e.WorkflowID, runID)
		runs = append([]*historypb.History{h}, runs...)
		if runID = h.Events[0].GetWorkflowExecutionStartedEventAttributes().GetContinuedExecutionRunId(); runID == "" {
			break
		}
	}
	for i, h := range runs {
		b, err := protojson.MarshalOptions{Indent: "  "}.Marshal(h)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("inline-playbook-long-run-%d.json", i+1)), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func historyOf(t *testing.T, workflowID, runID string) *historypb.History {
	t.Helper()
	it := env.temporal.GetWorkflowHistory(context.Background(), workflowID, runID, false, enums.HISTORY_EVENT_FILTER_TYPE_ALL_EVENT)
	h := &historypb.History{}
	for it.HasNext() {
		ev, err := it.Next()
		if err != nil {
			t.Fatal(err)
		}
		h.Events = append(h.Events, ev)
	}
	return h
}
