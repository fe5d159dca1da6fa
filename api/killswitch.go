package api

import (
	"context"
	"time"

	"github.com/gin-gonic/gin"
	"go.temporal.io/sdk/client"

	"github.com/vigil-soc/vigil/runview"
	"github.com/vigil-soc/vigil/store"
	"github.com/vigil-soc/vigil/workflows"
)

// killSwitchMeta is what the Temporal UI shows about the kill switch run.
var killSwitchMeta = runview.KillSwitch()

type killSwitchRequest struct {
	Reason *string `json:"reason"`
}

// killSwitchView is the kill switch as the API shows it.
type killSwitchView struct {
	Active        bool       `json:"active"`
	Reason        string     `json:"reason"`
	ChangedBy     string     `json:"changed_by"`
	ChangedAt     *time.Time `json:"changed_at"`
	ParkedActions int        `json:"parked_actions"`
	Source        string     `json:"source"` // "workflow" or "store" when Temporal did not answer
}

// getKillSwitch asks the kill switch workflow (a global query) and falls
// back to the store's mirror when Temporal does not answer.
func (s *server) getKillSwitch(c *gin.Context) (reply, error) {
	qctx, cancel := context.WithTimeout(c, 3*time.Second)
	defer cancel()
	resp, err := s.temporal.QueryWorkflow(qctx, workflows.KillSwitchWorkflowID, "", workflows.QueryKillSwitch)
	if err == nil {
		var st workflows.KillSwitchState
		if err := resp.Get(&st); err == nil {
			v := killSwitchView{Active: st.Active, Reason: st.Reason, ChangedBy: st.ChangedBy,
				ParkedActions: len(st.Parked), Source: "workflow"}
			if !st.ChangedAt.IsZero() {
				at := st.ChangedAt.UTC()
				v.ChangedAt = &at
			}
			return ok(v), nil
		}
	}
	ks, err := s.store.KillSwitch(c)
	if err != nil {
		return reply{}, err
	}
	v := killSwitchView{Active: ks.Active, Reason: ks.Reason, ChangedBy: ks.ChangedBy, Source: "store"}
	if !ks.ChangedAt.IsZero() {
		at := ks.ChangedAt.UTC()
		v.ChangedAt = &at
	}
	return ok(v), nil
}

func (s *server) activateKillSwitch(c *gin.Context) (reply, error) { return s.setKillSwitch(c, true) }
func (s *server) deactivateKillSwitch(c *gin.Context) (reply, error) {
	return s.setKillSwitch(c, false)
}

// setKillSwitch writes the store first, so connector activities on every
// worker see the change on their next call, then tells the kill switch
// workflow, which wakes parked actions on deactivation.
func (s *server) setKillSwitch(c *gin.Context, active bool) (reply, error) {
	var req killSwitchRequest
	if err := decodeJSON(c, &req, !active); err != nil {
		return reply{}, err
	}
	bad := map[string]string{}
	var reason string
	if active {
		reason = requiredText(bad, "reason", req.Reason, maxTextLen)
	} else {
		reason = optionalText(bad, "reason", req.Reason, maxTextLen)
	}
	if len(bad) > 0 {
		return reply{}, validationError(bad)
	}
	me := principal(c).User.Username
	now := store.Now()
	if err := s.store.SetKillSwitch(c, store.KillSwitchState{Active: active, Reason: reason, ChangedBy: me, ChangedAt: now}); err != nil {
		return reply{}, err
	}
	setAuditTarget(c, workflows.KillSwitchWorkflowID)
	setAuditDetails(c, map[string]any{"active": active, "reason": reason})
	change := workflows.KillSwitchChange{Active: active, Reason: reason, By: me, At: now}
	_, err := s.temporal.SignalWithStartWorkflow(c, workflows.KillSwitchWorkflowID, workflows.SignalKillSwitchSet, change,
		client.StartWorkflowOptions{ID: workflows.KillSwitchWorkflowID, TaskQueue: workflows.TaskQueue,
			StaticSummary: killSwitchMeta.Summary, StaticDetails: killSwitchMeta.Details},
		workflows.KillSwitch, workflows.KillSwitchState{})
	if err != nil {
		// The store already holds the change, so connector calls obey it;
		// parked actions wake at their next recheck.
		s.log.Error("kill switch workflow not signalled", "active", active, "err", err)
	}
	return ok(killSwitchView{Active: active, Reason: reason, ChangedBy: me, ChangedAt: &now, Source: "store"}), nil
}

// killSwitchActive reads the store's mirror for /health and the metric.
func (s *server) killSwitchActive(ctx context.Context) bool {
	ks, err := s.store.KillSwitch(ctx)
	return err == nil && ks.Active
}
