package api

import (
	"errors"
	"net/http"

	"github.com/gin-gonic/gin"
	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/api/serviceerror"

	"github.com/vigil-soc/vigil/store"
)

// CodeHuntRunInProgress refuses an execute while a run of the same hunt
// is still running (409): on-demand runs of one hunt do not overlap, as
// its schedule's runs do not.
const CodeHuntRunInProgress = "hunt_run_in_progress"

// runInProgress answers the run of the hunt that is still running, if
// any. A run recorded as running whose workflow has ended (terminated in
// the Temporal UI, or gone past retention) never records its outcome;
// it is marked failed here instead of holding the hunt forever.
func (s *server) runInProgress(c *gin.Context, huntID string) (*store.HuntRun, error) {
	runs, err := s.store.RunningHuntRuns(c, huntID)
	if err != nil {
		return nil, err
	}
	for i := range runs {
		r := &runs[i]
		d, err := s.temporal.DescribeWorkflowExecution(c, r.WorkflowID, "")
		var gone *serviceerror.NotFound
		switch {
		case errors.As(err, &gone):
		case err != nil:
			return nil, err
		case d.GetWorkflowExecutionInfo().GetStatus() == enumspb.WORKFLOW_EXECUTION_STATUS_RUNNING:
			return r, nil
		}
		why := "the run's workflow ended without recording an outcome"
		if err == nil {
			why += " (" + d.GetWorkflowExecutionInfo().GetStatus().String() + ")"
		}
		s.log.WarnContext(c, "hunt run recorded as running has no running workflow", "run_id", r.ID, "workflow_id", r.WorkflowID)
		if err := s.store.FinishHuntRun(c, &store.HuntRun{ID: r.ID, Status: store.HuntRunFailed, Error: why,
			QueryResults: r.QueryResults}); err != nil {
			return nil, err
		}
	}
	return nil, nil
}

// runInProgressError is the 409 for an execute that overlaps run r.
func runInProgressError(huntID string, r *store.HuntRun) *Error {
	return &Error{Status: http.StatusConflict, Code: CodeHuntRunInProgress,
		Message: "a run of this hunt is still running; execute it again once it has ended",
		Details: map[string]any{"hunt_id": huntID, "run_id": r.ID, "workflow_id": r.WorkflowID, "started_at": r.StartedAt.UTC()}}
}
