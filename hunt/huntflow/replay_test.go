package huntflow_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	enumspb "go.temporal.io/api/enums/v1"
	historypb "go.temporal.io/api/history/v1"
	"go.temporal.io/sdk/worker"
	"google.golang.org/protobuf/encoding/protojson"

	"github.com/vigil-soc/vigil/hunt/huntflow"
	"github.com/vigil-soc/vigil/store"
)

// TestRecordHuntHistory writes the history of a hunt run with findings to
// VIGIL_RECORD_HISTORIES/<name>.json, for the replay test below; record
// one with each workflow version a running deployment may hold.
func TestRecordHuntHistory(t *testing.T) {
	dir, name := os.Getenv("VIGIL_RECORD_HISTORIES"), os.Getenv("VIGIL_RECORD_NAME")
	if dir == "" || name == "" {
		t.Skip("set VIGIL_RECORD_HISTORIES to a directory and VIGIL_RECORD_NAME to record a hunt run's history")
	}
	e := setup(t)
	// One short query (a local activity from LocalQueriesVersion) and one
	// with the default timeout (a heartbeating activity).
	h := e.hunt(t, 0, store.HuntQuery{LibraryID: "ca-password-spray", TimeoutSecs: 20}, store.HuntQuery{LibraryID: "c2-beaconing"})
	if res := e.run(t, h, "rec"); res.Status != store.HuntRunCompleted || res.TotalFindings != 2 {
		t.Fatalf("recorded run: %+v", res)
	}
	it := e.c.GetWorkflowHistory(context.Background(), huntflow.WorkflowID(h.ID, "rec"), "", false, enumspb.HISTORY_EVENT_FILTER_TYPE_ALL_EVENT)
	hist := &historypb.History{}
	for it.HasNext() {
		ev, err := it.Next()
		if err != nil {
			t.Fatal(err)
		}
		hist.Events = append(hist.Events, ev)
	}
	b, err := protojson.MarshalOptions{Indent: "  "}.Marshal(hist)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, name+".json"), b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestReplayHuntHistories replays recorded hunt runs, from before and
// after preparing and finishing became local activities and after short
// queries did, against today's workflow: a change that would break
// running hunts fails here.
func TestReplayHuntHistories(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "histories", "*.json"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no recorded hunt histories: %v", err)
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			r := worker.NewWorkflowReplayer()
			r.RegisterWorkflow(huntflow.Run)
			if err := r.ReplayWorkflowHistoryFromJSONFile(nil, f); err != nil {
				t.Fatalf("replay %s: %v", f, err)
			}
		})
	}
}
