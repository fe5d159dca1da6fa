package api

import (
	"context"
	"errors"
	"net/http"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/vigil-soc/vigil/hunt"
	"github.com/vigil-soc/vigil/hunt/huntflow"
)

// CodeHuntNotScheduled refuses a schedule trigger for a hunt that owns no
// schedule (on_demand and triggered hunts) (409).
const CodeHuntNotScheduled = "hunt_not_scheduled"

// triggerStartWait bounds the wait for the schedule to report the run it
// started.
const triggerStartWait = 15 * time.Second

// triggerSchedule runs an active scheduled or continuous hunt's schedule
// now, as its trigger in the Temporal UI does: the run is the schedule's
// (its workflow ID, trigger and window; a continuous hunt's window starts
// at its last successful run). Then it waits like execute: 200 with the
// findings, 202 with the run id. A run of the schedule still running is
// the execute's 409 hunt_run_in_progress naming it, since the schedule
// skips overlapping runs.
func (s *server) triggerSchedule(c *gin.Context) (reply, error) {
	h, err := s.store.GetHunt(c, c.Param("hunt_id"))
	if err != nil {
		return reply{}, err
	}
	setAuditTarget(c, h.ID)
	if h.HuntType != "scheduled" && h.HuntType != "continuous" {
		return reply{}, &Error{Status: http.StatusConflict, Code: CodeHuntNotScheduled,
			Message: "a " + h.HuntType + " hunt has no schedule; POST /api/v1/hunts/" + h.ID + "/execute runs it",
			Details: map[string]any{"hunt_type": h.HuntType}}
	}
	if h.Status != "active" || !h.Enabled {
		return reply{}, notExecutable(h, "the schedule of a hunt that is not active and enabled does not run; "+
			"resume the hunt, or execute it for a one-off run")
	}
	ctx, cancel := context.WithTimeout(c, triggerStartWait)
	defer cancel()
	wid, err := huntflow.TriggerSchedule(ctx, s.temporal, h.ID)
	var busy *huntflow.ScheduleBusyError
	switch {
	case errors.As(err, &busy):
		return reply{}, &Error{Status: http.StatusConflict, Code: CodeHuntRunInProgress, Message: busy.Error(),
			Details: map[string]any{"hunt_id": h.ID, "run_id": hunt.RunIDOf(busy.WorkflowID), "workflow_id": busy.WorkflowID}}
	case errors.Is(err, huntflow.ErrTriggerPending):
		return reply{}, &Error{Status: http.StatusServiceUnavailable, Code: CodeUnavailable, Message: err.Error(),
			Details: map[string]any{"schedule_id": huntflow.ScheduleID(h.ID)}}
	case errors.Is(err, huntflow.ErrNoSchedule):
		return reply{}, &Error{Status: http.StatusConflict, Code: CodeHuntNotScheduled, Message: err.Error()}
	case err != nil:
		return reply{}, err
	}
	return s.awaitRun(c, h.ID, hunt.RunIDOf(wid), s.temporal.GetWorkflow(c, wid, ""))
}
