package api

import (
	"context"
	"strings"

	"github.com/gin-gonic/gin"
	"go.temporal.io/sdk/client"

	"github.com/vigil-soc/vigil/store"
	"github.com/vigil-soc/vigil/workflows"
)

// wakeForDecision wakes the run of an action whose decision the store has
// just recorded, with the UpdateDecide workflow update, and waits up to
// ActionWait for the run to have acted on it; then it reads the action
// once. The update carries nothing: the run reads the decision from the
// store. When no worker answers in time (or the engine is unreachable, or
// the run has moved on) the decision still stands in the store and the run
// acts on it when it next wakes; the caller sees the action as it is.
//
// Runs started before UpdateDecide existed do not know it: they get
// signal (sent by legacy) and the store is polled as before.
func (s *server) wakeForDecision(c *gin.Context, a *store.Action, legacy func(context.Context) error) (*store.Action, error) {
	ctx, cancel := context.WithTimeout(c, s.opts.ActionWait)
	defer cancel()
	h, err := s.temporal.UpdateWorkflow(ctx, client.UpdateWorkflowOptions{
		WorkflowID: a.WorkflowID, UpdateName: workflows.UpdateDecide,
		Args: []any{workflows.DecideRequest{}}, WaitForStage: client.WorkflowUpdateStageCompleted,
	})
	if err == nil {
		var res workflows.DecideResult
		err = h.Get(ctx, &res)
	}
	switch {
	case err == nil:
	case isUnknownUpdate(err):
		if err := legacy(c); err != nil {
			return nil, err
		}
		return s.waitAction(c, a.ID, func(a *store.Action) bool { return a.Status != store.ActionPendingApproval })
	default:
		s.log.Info("decision recorded; its run did not act on it in time", "action_id", a.ID, "err", err)
	}
	return s.store.GetAction(context.WithoutCancel(c), a.ID)
}

// isUnknownUpdate reports whether the run refused an update because it
// registers no handler of that name: a run older than the update.
func isUnknownUpdate(err error) bool {
	return strings.Contains(err.Error(), "unknown update "+workflows.UpdateDecide)
}
