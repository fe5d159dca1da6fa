// Package dispatch starts Vigil's automation from the API and from the
// durable intake queue: it turns queued alerts into incidents and starts
// their triage workflows, in order, when the engine has capacity.
package dispatch

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/google/uuid"
	"go.temporal.io/api/serviceerror"
	"go.temporal.io/sdk/client"

	"github.com/vigil-soc/vigil/runview"
	"github.com/vigil-soc/vigil/store"
	"github.com/vigil-soc/vigil/workflows"
)

// ErrEngineUnavailable means Temporal did not accept a workflow start.
var ErrEngineUnavailable = errors.New("the workflow engine is unreachable")

// orphanTriageAge is how old a running triage record must be before a
// missing workflow is taken to mean it will never finish.
const orphanTriageAge = time.Minute

// Launcher starts triage runs exactly once per request.
type Launcher struct {
	Store    *store.Store
	Temporal client.Client
	// Links lets run summaries link to their incident (VIGIL_PUBLIC_URL).
	Links runview.Links
}

// TriageRequest asks for a triage run of an incident.
type TriageRequest struct {
	Incident *store.Incident
	// IncidentID names the incident when Incident is not loaded: the
	// incident is then read by the transaction that begins the run.
	IncidentID  string
	Force       bool
	RequestedBy string
	// Automated runs also request the recommended actions through the
	// Action workflow, so policy decides which execute at once.
	Automated bool
	// TriageID fixes the run's id (from an intake queue entry), so a
	// retried dispatch joins the run it already started.
	TriageID string
}

// BeginTriage starts a new triage run or returns the one the incident
// already has (running, or completed when force is not set), so repeated
// or concurrent requests never triage an incident twice at once.
func (l *Launcher) BeginTriage(ctx context.Context, req TriageRequest) (*store.Triage, bool, error) {
	inc := req.Incident
	incidentID := req.IncidentID
	if inc != nil {
		incidentID = inc.ID
	}
	for attempt := 0; ; attempt++ {
		id := req.TriageID
		if id == "" || attempt > 0 {
			id = uuid.NewString()
		}
		next := &store.Triage{ID: id, RequestedBy: req.RequestedBy, WorkflowID: workflows.TriageWorkflowID(incidentID, id)}
		var (
			t       *store.Triage
			started bool
			err     error
		)
		if inc == nil {
			inc, t, started, err = l.Store.BeginIncidentTriage(ctx, incidentID, req.Force, next)
		} else {
			t, started, err = l.Store.BeginTriage(ctx, incidentID, req.Force, next)
		}
		if err != nil {
			return nil, false, err
		}
		if !started {
			if t.ID == req.TriageID && t.Status == store.TriageRunning {
				// Our own earlier attempt: make sure its workflow runs.
				return t, false, l.startTriageWorkflow(ctx, inc, t, req)
			}
			if t.Status != store.TriageRunning || attempt > 0 ||
				time.Since(t.StartedAt) < orphanTriageAge || l.workflowExists(ctx, t.WorkflowID) {
				return t, false, nil
			}
			// No workflow runs the record: it is gone (for example a wiped
			// dev server), or the run is still queued behind a backlog or
			// the kill switch. Close it and start afresh; its queue entry
			// then finds it closed and leaves it. Young records are left
			// alone: their workflow may be starting right now.
			if err := l.Store.FailTriage(ctx, t.ID, "superseded by a new run: no workflow was running this one"); err != nil {
				return nil, false, err
			}
			continue
		}
		if err := l.startTriageWorkflow(ctx, inc, t, req); err != nil {
			if req.TriageID == "" {
				_ = l.Store.FailTriage(context.WithoutCancel(ctx), t.ID, "could not start workflow: "+err.Error())
			}
			return nil, false, err
		}
		return t, true, nil
	}
}

// StartQueuedTriage starts the workflow of a triage queued with its run
// record (req.TriageID names both): one read finds the record and its
// incident, and a run no longer running (finished, or given up for a run
// requested meanwhile) is left alone. An entry queued without a record
// begins its run as BeginTriage does.
func (l *Launcher) StartQueuedTriage(ctx context.Context, req TriageRequest) error {
	q, err := l.Store.GetQueuedTriage(ctx, req.TriageID)
	if errors.Is(err, store.ErrNotFound) {
		_, _, err = l.BeginTriage(ctx, req)
		return err
	}
	if err != nil {
		return err
	}
	if q.Triage.Status != store.TriageRunning {
		return nil
	}
	return l.startTriageWorkflow(ctx, &q.Incident, &q.Triage, req)
}

func (l *Launcher) startTriageWorkflow(ctx context.Context, inc *store.Incident, t *store.Triage, req TriageRequest) error {
	meta := runview.Triage(l.Links, inc, req.RequestedBy, req.Automated)
	err := workflows.Start{ID: t.WorkflowID, Summary: meta.Summary, Details: meta.Details,
		Attrs: workflows.IncidentAttrs(inc.IncidentNumber, inc.Severity, inc.IncidentType)}.
		Run(ctx, l.Temporal, workflows.Triage, workflows.TriageInput{IncidentID: inc.ID, TriageID: t.ID, RequestActions: req.Automated})
	if err != nil {
		return fmt.Errorf("%w: %v", ErrEngineUnavailable, err)
	}
	return nil
}

func (l *Launcher) workflowExists(ctx context.Context, workflowID string) bool {
	_, err := l.Temporal.DescribeWorkflowExecution(ctx, workflowID, "")
	var nf *serviceerror.NotFound
	return !errors.As(err, &nf)
}
