package workflows_test

import (
	"path/filepath"
	"testing"

	"go.temporal.io/sdk/worker"

	"github.com/vigil-soc/vigil/workflows"
)

// TestReplayRecordedHistories replays recorded histories of real runs (the
// built-in playbooks, triage, actions) against today's workflow code: a
// change that would break running executions fails here. Record fresh ones
// with VIGIL_RECORD_HISTORIES (see api/histories_test.go) when a change is
// deliberate and guarded with workflow.GetVersion.
func TestReplayRecordedHistories(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "histories", "*.json"))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatal("no recorded histories in testdata/histories")
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			r := worker.NewWorkflowReplayer()
			r.RegisterWorkflow(workflows.Triage)
			r.RegisterWorkflow(workflows.Action)
			r.RegisterWorkflow(workflows.KillSwitch)
			r.RegisterWorkflow(workflows.Playbook)
			if err := r.ReplayWorkflowHistoryFromJSONFile(nil, f); err != nil {
				t.Fatalf("replay %s: %v", f, err)
			}
		})
	}
}
