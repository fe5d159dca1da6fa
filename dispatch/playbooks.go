package dispatch

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"

	"github.com/google/uuid"

	"github.com/vigil-soc/vigil/playbook"
	"github.com/vigil-soc/vigil/runview"
	"github.com/vigil-soc/vigil/store"
	"github.com/vigil-soc/vigil/workflows"
)

// ErrPlaybookDisabled means a disabled playbook was asked to run.
var ErrPlaybookDisabled = errors.New("playbook is disabled")

// executionNamespace derives execution ids from queue entries, so a
// retried dispatch finds the run it already started.
var executionNamespace = uuid.MustParse("0b6c1a52-3f0e-4d0b-8f7e-6a2f9c1d4e73")

// PlaybookRequest asks for a run of a playbook's current version.
type PlaybookRequest struct {
	Playbook    *store.Playbook
	Incident    *store.Incident
	Variables   map[string]any
	TriggeredBy string
	// TriggeredByID is the user who starts the run, who becomes the
	// requester of every action it requests; empty for automated runs.
	TriggeredByID string
	// ExecutionID fixes the run's id; empty means a new one.
	ExecutionID string
	// Auto marks an automatic run: at most one per playbook and incident.
	Auto bool
}

// StartPlaybook records an execution of the playbook's current version and
// starts its workflow, which loads that version's definition from the
// store by execution id, so later edits never change the run.
func (l *Launcher) StartPlaybook(ctx context.Context, req PlaybookRequest) (*store.PlaybookExecution, error) {
	p := req.Playbook
	if !p.Enabled {
		return nil, ErrPlaybookDisabled
	}
	_, ver, err := l.Store.GetPlaybook(ctx, p.ID)
	if err != nil {
		return nil, err
	}
	res := playbook.Parse([]byte(ver.Content))
	if !res.Valid() {
		return nil, fmt.Errorf("stored playbook %q version %s does not validate: %v", p.Name, ver.Version, res.Errors)
	}
	id := req.ExecutionID
	if id == "" {
		id = uuid.NewString()
	}
	e, err := l.Store.GetExecution(ctx, id)
	if errors.Is(err, store.ErrNotFound) {
		e = &store.PlaybookExecution{ID: id, PlaybookID: p.ID, PlaybookName: p.Name, Version: ver.Version,
			IncidentID: req.Incident.ID, TriggeredBy: req.TriggeredBy, TriggeredByID: req.TriggeredByID, Variables: store.NewJSON(req.Variables),
			StepsTotal: res.Playbook.StepCount(), WorkflowID: workflows.PlaybookRunWorkflowID(id)}
		if req.Auto {
			key := p.ID + "/" + req.Incident.ID
			e.AutoKey = &key
		}
		err = l.Store.CreateExecution(ctx, e)
		if errors.Is(err, store.ErrConflict) {
			return nil, nil // this playbook already ran automatically on this incident
		}
	}
	if err != nil {
		return nil, err
	}
	meta := runview.Playbook(l.Links, e, req.Incident, slices.Sorted(maps.Keys(e.Variables.V)))
	attrs := append(workflows.IncidentAttrs(req.Incident.IncidentNumber, req.Incident.Severity, req.Incident.IncidentType),
		workflows.SearchPlaybookName.ValueSet(p.Name))
	err = workflows.Start{ID: e.WorkflowID, Summary: meta.Summary, Details: meta.Details, Attrs: attrs}.
		Run(ctx, l.Temporal, workflows.Playbook, workflows.PlaybookInput{ExecutionID: e.ID, IncidentID: req.Incident.ID, Version: e.Version})
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrEngineUnavailable, err)
	}
	return e, nil
}

// runQueuedPlaybooks starts what an intake entry asks for: a named playbook
// (from a webhook source) or the auto-run playbooks of a new incident.
func (d *Dispatcher) runQueuedPlaybooks(ctx context.Context, it *store.IntakeItem) (string, error) {
	inc, err := d.Store.GetIncident(ctx, it.IncidentID)
	if errors.Is(err, store.ErrNotFound) {
		return "", nil
	}
	if err != nil {
		return "", err
	}
	var books []store.Playbook
	if it.Kind == store.IntakePlaybook {
		p, err := d.Store.PlaybookByName(ctx, it.Payload)
		if errors.Is(err, store.ErrNotFound) {
			d.Log.Warn("webhook source names an unknown playbook; triaging instead", "playbook", it.Payload, "incident", inc.IncidentNumber)
			_, _, err := d.Launcher.BeginTriage(ctx, TriageRequest{Incident: inc, RequestedBy: "webhook:" + it.Source, Automated: true, TriageID: it.ID})
			return inc.ID, err
		}
		if err != nil {
			return "", err
		}
		books = []store.Playbook{*p}
	} else if books, err = d.Store.AutoRunPlaybooks(ctx, inc.IncidentType); err != nil {
		return "", err
	}
	for i := range books {
		execID := uuid.NewSHA1(executionNamespace, []byte(it.ID+"/"+books[i].ID)).String()
		_, err := d.Launcher.StartPlaybook(ctx, PlaybookRequest{Playbook: &books[i], Incident: inc,
			TriggeredBy: "auto:" + it.Kind, ExecutionID: execID, Auto: it.Kind == store.IntakeAutoRun})
		if err != nil && !errors.Is(err, ErrPlaybookDisabled) {
			return "", err
		}
	}
	return inc.ID, nil
}
