package api

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/gin-gonic/gin"
	"github.com/google/uuid"
	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/api/serviceerror"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/temporal"

	"github.com/vigil-soc/vigil/store"
	"github.com/vigil-soc/vigil/workflows"
)

// orphanTriageAge is how old a running triage record must be before a
// missing workflow is taken to mean it will never finish.
const orphanTriageAge = time.Minute

type triageRequest struct {
	Playbook *string `json:"playbook"`
	Force    bool    `json:"force"`
}

// triageResponse answers a triage request.
type triageResponse struct {
	TriageID           string         `json:"triage_id"`
	IncidentID         string         `json:"incident_id"`
	Status             string         `json:"status"`
	Verdict            *store.Verdict `json:"verdict,omitempty"`
	RecommendedActions []string       `json:"recommended_actions,omitempty"`
	Analyzer           string         `json:"analyzer,omitempty"`
	DurationMS         int64          `json:"duration_ms"`
	WorkflowID         string         `json:"workflow_id"`
	// Reused is true when an earlier verdict was returned instead of
	// running triage again (force was not set).
	Reused bool `json:"reused"`
}

func triageView(t *store.Triage, reused bool) triageResponse {
	return triageResponse{
		TriageID: t.ID, IncidentID: t.IncidentID, Status: t.Status,
		Verdict: t.Verdict.V, RecommendedActions: t.RecommendedActions.V,
		Analyzer: t.Analyzer, DurationMS: t.DurationMS, WorkflowID: t.WorkflowID,
		Reused: reused,
	}
}

// triageIncident starts (or joins) a Triage workflow and waits a bounded
// time for its verdict: 200 with the verdict, or 202 while it still runs.
func (s *server) triageIncident(c *gin.Context) (reply, error) {
	var req triageRequest
	if err := decodeJSON(c, &req, true); err != nil {
		return reply{}, err
	}
	if req.Playbook != nil && *req.Playbook != "" {
		return reply{}, validationError(map[string]string{"playbook": fmt.Sprintf("unknown playbook %q", *req.Playbook)})
	}
	inc, err := s.store.GetIncident(c, c.Param("id"))
	if err != nil {
		return reply{}, orNotFound(err, incidentNotFound)
	}
	t, started, err := s.beginTriage(c, inc, req.Force, principal(c).User.Username)
	if err != nil {
		return reply{}, err
	}
	setAuditDetails(c, map[string]any{"triage_id": t.ID, "force": req.Force, "started": started})
	if !started && t.Status == store.TriageCompleted {
		return ok(triageView(t, true)), nil
	}
	return s.awaitTriage(c, t)
}

// beginTriage starts a new triage run or returns the one the incident
// already has (running, or completed when force is not set), so repeated or
// concurrent requests never triage an incident twice at once.
func (s *server) beginTriage(ctx context.Context, inc *store.Incident, force bool, requestedBy string) (*store.Triage, bool, error) {
	for attempt := 0; ; attempt++ {
		id := uuid.NewString()
		t, started, err := s.store.BeginTriage(ctx, inc.ID, force, &store.Triage{
			ID: id, RequestedBy: requestedBy, WorkflowID: workflows.TriageWorkflowID(inc.ID, id),
		})
		if err != nil {
			return nil, false, orNotFound(err, incidentNotFound)
		}
		if !started {
			if t.Status != store.TriageRunning || attempt > 0 ||
				time.Since(t.StartedAt) < orphanTriageAge || s.workflowExists(ctx, t.WorkflowID) {
				return t, false, nil
			}
			// The running record's workflow is gone (for example a wiped
			// dev server): close the orphan and start afresh. Young records
			// are left alone: their workflow may be starting right now.
			if err := s.store.FailTriage(ctx, t.ID, "triage workflow no longer exists"); err != nil {
				return nil, false, err
			}
			continue
		}
		if err := s.startTriageWorkflow(ctx, inc, t); err != nil {
			_ = s.store.FailTriage(context.WithoutCancel(ctx), t.ID, "could not start workflow: "+err.Error())
			return nil, false, newError(http.StatusServiceUnavailable, CodeUnavailable,
				"the workflow engine is unreachable; try again shortly")
		}
		return t, true, nil
	}
}

func (s *server) startTriageWorkflow(ctx context.Context, inc *store.Incident, t *store.Triage) error {
	_, err := s.temporal.ExecuteWorkflow(ctx, client.StartWorkflowOptions{
		ID:                    t.WorkflowID,
		TaskQueue:             workflows.TaskQueue,
		WorkflowIDReusePolicy: enumspb.WORKFLOW_ID_REUSE_POLICY_REJECT_DUPLICATE,
		TypedSearchAttributes: temporal.NewSearchAttributes(
			workflows.SearchIncidentNumber.ValueSet(inc.IncidentNumber),
			workflows.SearchSeverity.ValueSet(inc.Severity),
			workflows.SearchIncidentType.ValueSet(inc.IncidentType),
		),
	}, workflows.Triage, workflows.TriageInput{IncidentID: inc.ID, TriageID: t.ID})
	var started *serviceerror.WorkflowExecutionAlreadyStarted
	if errors.As(err, &started) {
		return nil
	}
	return err
}

func (s *server) workflowExists(ctx context.Context, workflowID string) bool {
	_, err := s.temporal.DescribeWorkflowExecution(ctx, workflowID, "")
	var nf *serviceerror.NotFound
	return !errors.As(err, &nf)
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
