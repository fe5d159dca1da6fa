package api

import (
	"context"
	"errors"
	"net/http"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/vigil-soc/vigil/dispatch"
	"github.com/vigil-soc/vigil/store"
	"github.com/vigil-soc/vigil/workflows"
)

// executionView follows SPEC.md's Playbook execution, with per-step
// progress on single reads.
type executionView struct {
	ExecutionID    string             `json:"execution_id"`
	PlaybookID     string             `json:"playbook_id"`
	PlaybookName   string             `json:"playbook_name"`
	Version        string             `json:"version"`
	IncidentID     string             `json:"incident_id"`
	Status         string             `json:"status"`
	TriggeredBy    string             `json:"triggered_by"`
	StartedAt      time.Time          `json:"started_at"`
	CompletedAt    *time.Time         `json:"completed_at,omitempty"`
	StepsCompleted int                `json:"steps_completed"`
	StepsTotal     int                `json:"steps_total"`
	DurationMS     int64              `json:"duration_ms"`
	Error          string             `json:"error,omitempty"`
	Verdict        map[string]any     `json:"verdict,omitempty"`
	WorkflowID     string             `json:"workflow_id"`
	Steps          []store.StepRecord `json:"steps,omitempty"`
}

func executionViewOf(e *store.PlaybookExecution, withSteps bool) executionView {
	v := executionView{ExecutionID: e.ID, PlaybookID: e.PlaybookID, PlaybookName: e.PlaybookName, Version: e.Version,
		IncidentID: e.IncidentID, Status: e.Status, TriggeredBy: e.TriggeredBy, StartedAt: e.StartedAt.UTC(),
		CompletedAt: utcPtr(e.CompletedAt), StepsCompleted: e.StepsCompleted, StepsTotal: e.StepsTotal,
		DurationMS: e.DurationMS, Error: e.Error, WorkflowID: e.WorkflowID}
	if e.CompletedAt == nil {
		v.DurationMS = time.Since(e.StartedAt).Milliseconds()
	}
	if withSteps {
		v.Steps = e.Steps.V
	}
	return v
}

type runRequest struct {
	IncidentID *string        `json:"incident_id"`
	Variables  map[string]any `json:"variables"`
}

// runPlaybook starts a run of the current version on an incident and
// waits a bounded time for it to end.
func (s *server) runPlaybook(c *gin.Context) (reply, error) {
	var req runRequest
	if err := decodeJSON(c, &req, false); err != nil {
		return reply{}, err
	}
	bad := map[string]string{}
	incID := requiredText(bad, "incident_id", req.IncidentID, 0)
	if len(bad) > 0 {
		return reply{}, validationError(bad)
	}
	p, _, err := s.store.GetPlaybook(c, c.Param("id"))
	if err != nil {
		return reply{}, orNotFound(err, "playbook")
	}
	inc, err := s.store.GetIncident(c, incID)
	if err != nil {
		if errors.Is(err, store.ErrNotFound) {
			return reply{}, validationError(map[string]string{"incident_id": "no such incident"})
		}
		return reply{}, err
	}
	done, err := s.startRun(c, p, inc, req.Variables)
	if err != nil {
		return reply{}, err
	}
	setAuditTarget(c, p.ID)
	setAuditDetails(c, map[string]any{"execution_id": done.ID, "incident_id": inc.ID, "version": done.Version})
	v := executionViewOf(done, true)
	v.Verdict = verdictOf(inc.ID, s, c)
	if done.Status == store.ExecutionRunning {
		return accepted(v), nil
	}
	return created(v), nil
}

// startRun starts a run of the playbook's current version on an incident
// and waits up to ActionWait for it to end; the execution it returns is
// still running when the wait ran out.
func (s *server) startRun(c *gin.Context, p *store.Playbook, inc *store.Incident, vars map[string]any) (*store.PlaybookExecution, error) {
	me := principal(c).User
	e, err := s.launcher.StartPlaybook(c, dispatch.PlaybookRequest{Playbook: p, Incident: inc, Variables: vars,
		TriggeredBy: me.Username, TriggeredByID: me.ID})
	switch {
	case errors.Is(err, dispatch.ErrPlaybookDisabled):
		return nil, newError(http.StatusConflict, CodePlaybookDisabled, "this playbook is disabled")
	case errors.Is(err, dispatch.ErrEngineUnavailable):
		return nil, newError(http.StatusServiceUnavailable, CodeUnavailable, "the workflow engine is unreachable; try again shortly")
	case err != nil:
		return nil, err
	}
	// Poll without the step records, which a long run's checkpoints make
	// large; read them once the wait is over.
	_, err = waitFor(c, s.opts.ActionWait,
		func(ctx context.Context) (*store.PlaybookExecution, error) {
			return s.store.GetExecutionHead(ctx, e.ID)
		},
		func(e *store.PlaybookExecution) bool { return e.Status != store.ExecutionRunning })
	if err != nil {
		return nil, err
	}
	return s.store.GetExecution(c, e.ID)
}

func verdictOf(incidentID string, s *server, ctx context.Context) map[string]any {
	inc, err := s.store.GetIncident(ctx, incidentID)
	if err != nil || inc.Verdict.V == nil {
		return nil
	}
	return map[string]any{"classification": inc.Verdict.V.Classification, "confidence": inc.Verdict.V.Confidence}
}

func (s *server) listExecutions(c *gin.Context) (reply, error) {
	p, _, err := s.store.GetPlaybook(c, c.Param("id"))
	if err != nil {
		return reply{}, orNotFound(err, "playbook")
	}
	rows, err := s.store.ListExecutions(c, p.ID, 200)
	if err != nil {
		return reply{}, err
	}
	out := make([]executionView, 0, len(rows))
	for i := range rows {
		out = append(out, executionViewOf(&rows[i], false))
	}
	return ok(out), nil
}

// getExecution shows a run with per-step progress: from the running
// workflow (a query) while it runs, from the store once it has ended.
func (s *server) getExecution(c *gin.Context) (reply, error) {
	e, err := s.store.GetExecution(c, c.Param("execution_id"))
	if err != nil || e.PlaybookID != c.Param("id") {
		return reply{}, notFound("playbook execution")
	}
	v := executionViewOf(e, true)
	if e.Status == store.ExecutionRunning {
		qctx, cancel := context.WithTimeout(c, 3*time.Second)
		defer cancel()
		if resp, err := s.temporal.QueryWorkflow(qctx, e.WorkflowID, "", workflows.QueryPlaybookProgress); err == nil {
			var pr workflows.PlaybookProgress
			if resp.Get(&pr) == nil {
				v.Steps, v.StepsCompleted = pr.Steps, pr.StepsCompleted
				if pr.Status != "running" {
					v.Status = pr.Status
				}
			}
		}
	}
	v.Verdict = verdictOf(e.IncidentID, s, c)
	return ok(v), nil
}
