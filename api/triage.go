package api

import (
	"context"
	"errors"
	"net/http"
	"time"

	"github.com/gin-gonic/gin"
	"go.temporal.io/api/serviceerror"

	"github.com/vigil-soc/vigil/dispatch"
	"github.com/vigil-soc/vigil/store"
	"github.com/vigil-soc/vigil/workflows"
)

type triageRequest struct {
	Playbook *string `json:"playbook"`
	Force    bool    `json:"force"`
}

// triageResponse answers a triage request.
type triageResponse struct {
	TriageID           string           `json:"triage_id"`
	IncidentID         string           `json:"incident_id"`
	Status             string           `json:"status"`
	Verdict            *store.Verdict   `json:"verdict,omitempty"`
	RecommendedActions []string         `json:"recommended_actions,omitempty"`
	Analyzer           string           `json:"analyzer,omitempty"`
	Model              string           `json:"model,omitempty"`
	FallbackReason     string           `json:"fallback_reason,omitempty"`
	Intel              []map[string]any `json:"intel,omitempty"`
	DurationMS         int64            `json:"duration_ms"`
	WorkflowID         string           `json:"workflow_id"`
	// Reused is true when an earlier verdict was returned instead of
	// running triage again (force was not set).
	Reused bool `json:"reused"`
}

func triageView(t *store.Triage, reused bool) triageResponse {
	return triageResponse{
		TriageID: t.ID, IncidentID: t.IncidentID, Status: t.Status,
		Verdict: t.Verdict.V, RecommendedActions: t.RecommendedActions.V,
		Analyzer: t.Analyzer, Model: t.Model, FallbackReason: t.FallbackReason, Intel: t.Intel.V,
		DurationMS: t.DurationMS, WorkflowID: t.WorkflowID,
		Reused: reused,
	}
}

// triageRecord is one entry of an incident's triage history.
type triageRecord struct {
	triageResponse
	Indicators  map[string][]string `json:"indicators,omitempty"`
	Error       string              `json:"error,omitempty"`
	RequestedBy string              `json:"requested_by"`
	StartedAt   time.Time           `json:"started_at"`
	CompletedAt *time.Time          `json:"completed_at,omitempty"`
}

// maxTriageHistory bounds the history one request returns.
const maxTriageHistory = 100

// listTriages answers an incident's triage history, newest first, with
// the indicators and intelligence each run saw.
func (s *server) listTriages(c *gin.Context) (reply, error) {
	inc, err := s.store.GetIncident(c, c.Param("id"))
	if err != nil {
		return reply{}, orNotFound(err, incidentNotFound)
	}
	rows, err := s.store.ListTriages(c, inc.ID, maxTriageHistory)
	if err != nil {
		return reply{}, err
	}
	out := make([]triageRecord, 0, len(rows))
	for i := range rows {
		t := &rows[i]
		out = append(out, triageRecord{triageResponse: triageView(t, false), Indicators: t.Indicators.V,
			Error: t.Error, RequestedBy: t.RequestedBy, StartedAt: t.StartedAt.UTC(), CompletedAt: utcPtr(t.CompletedAt)})
	}
	return ok(out), nil
}

// triageIncident starts (or joins) a Triage workflow and waits a bounded
// time for its verdict: 200 with the verdict, or 202 while it still runs.
func (s *server) triageIncident(c *gin.Context) (reply, error) {
	var req triageRequest
	if err := decodeJSON(c, &req, true); err != nil {
		return reply{}, err
	}
	inc, err := s.store.GetIncident(c, c.Param("id"))
	if err != nil {
		return reply{}, orNotFound(err, incidentNotFound)
	}
	if req.Playbook != nil && *req.Playbook != "" {
		return s.triageThroughPlaybook(c, inc, *req.Playbook)
	}
	t, started, err := s.launcher.BeginTriage(c, dispatch.TriageRequest{
		Incident: inc, Force: req.Force, RequestedBy: principal(c).User.Username,
	})
	if errors.Is(err, dispatch.ErrEngineUnavailable) {
		return reply{}, newError(http.StatusServiceUnavailable, CodeUnavailable, "the workflow engine is unreachable; try again shortly")
	}
	if err != nil {
		return reply{}, orNotFound(err, incidentNotFound)
	}
	setAuditDetails(c, map[string]any{"triage_id": t.ID, "force": req.Force, "started": started})
	if !started && t.Status == store.TriageCompleted {
		return ok(triageView(t, true)), nil
	}
	return s.awaitTriage(c, t)
}

// awaitTriage waits up to TriageWait for the workflow, then answers from
// the store, which the workflow has written by the time it completes.
func (s *server) awaitTriage(c *gin.Context, t *store.Triage) (reply, error) {
	waitCtx, cancel := context.WithTimeout(c, s.opts.TriageWait)
	defer cancel()
	var res workflows.TriageResult
	err := s.temporal.GetWorkflow(waitCtx, t.WorkflowID, "").Get(waitCtx, &res)
	var notStarted *serviceerror.NotFound
	if err != nil && (errors.As(err, &notStarted) || waitCtx.Err() != nil && c.Request.Context().Err() == nil) {
		// Still running, or joined a run whose workflow is still starting.
		return accepted(triageView(t, false)), nil
	}
	stored, serr := s.store.GetTriage(context.WithoutCancel(c), t.ID)
	if serr != nil {
		return reply{}, serr
	}
	if err != nil {
		return reply{}, &Error{Status: http.StatusInternalServerError, Code: CodeTriageFailed,
			Message: "triage did not produce a verdict", Details: map[string]any{
				"triage_id": t.ID, "workflow_id": t.WorkflowID, "reason": stored.Error,
			}}
	}
	return ok(triageView(stored, false)), nil
}
