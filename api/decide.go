package api

import (
	"context"
	"strings"
	"time"

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
//
// An update the run has not accepted yet lives only in the server's
// memory: if no worker takes it before the call gives up, it can be lost
// (a worker restart drops it with the run's cached state). So when the
// update does not answer, wake (a signal) is sent as well: signals are
// written to the run's history, and the first worker to pick the run up
// reads the store and acts on the decision.
func (s *server) wakeForDecision(c *gin.Context, a *store.Action, wake decisionWake, legacy func(context.Context) error) (*store.Action, error) {
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
		s.durableWake(c, a, wake)
	}
	return s.store.GetAction(context.WithoutCancel(c), a.ID)
}

// isUnknownUpdate reports whether the run refused an update because it
// registers no handler of that name: a run older than the update.
func isUnknownUpdate(err error) bool {
	return strings.Contains(err.Error(), "unknown update "+workflows.UpdateDecide)
}

// decisionWake is the signal that wakes a run, as a fallback to the
// update; it carries nothing the run trusts.
type decisionWake struct {
	Name string
	Arg  any
}

// wakeSignalTimeout bounds the fallback signal, sent after the request's
// own wait ran out.
const wakeSignalTimeout = 5 * time.Second

// durableWake sends the fallback wake signal; failing, the decision still
// stands and the run's periodic store recheck finds it.
func (s *server) durableWake(c context.Context, a *store.Action, wake decisionWake) {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(c), wakeSignalTimeout)
	defer cancel()
	if err := s.temporal.SignalWorkflow(ctx, a.WorkflowID, "", wake.Name, wake.Arg); err != nil {
		s.log.Warn("decision wake signal not delivered; the run's recheck will find the decision", "action_id", a.ID, "err", err)
	}
}
