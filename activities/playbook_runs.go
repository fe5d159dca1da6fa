package activities

import (
	"context"
	"errors"
	"fmt"

	"go.temporal.io/sdk/temporal"

	"github.com/vigil-soc/vigil/playbook"
	"github.com/vigil-soc/vigil/store"
)

// PlaybookRun is a playbook execution as the store records it: the pinned
// version's definition and what the run was started with.
type PlaybookRun struct {
	IncidentID string
	Name       string
	Version    string
	Definition playbook.Playbook
	Variables  map[string]any
	// Steps are the step records a checkpoint stored, from which a run
	// that continued as new resumes.
	Steps []StepRecord
}

// ownedExecution reads a playbook execution and checks that the caller is
// its workflow.
func (a *Activities) ownedExecution(ctx context.Context, executionID string) (*store.PlaybookExecution, error) {
	e, err := a.Store.GetExecutionHead(ctx, executionID)
	if err != nil {
		return nil, permanentIfNotFound(fmt.Errorf("playbook execution %s: %w", executionID, err))
	}
	if err := ownedBy(ctx, "playbook execution", e.ID, e.WorkflowID); err != nil {
		return nil, err
	}
	return e, nil
}

// LoadPlaybookRun loads what a Playbook workflow runs from the store: the
// definition of the version the execution pinned, its incident and
// variables. Nothing in the workflow's input is trusted for this.
func (a *Activities) LoadPlaybookRun(ctx context.Context, executionID string) (PlaybookRun, error) {
	e, err := a.ownedExecution(ctx, executionID)
	if err != nil {
		return PlaybookRun{}, err
	}
	if e.Status != store.ExecutionRunning {
		return PlaybookRun{}, temporal.NewNonRetryableApplicationError(
			fmt.Sprintf("playbook execution %s has already ended (%s)", e.ID, e.Status), ErrTypeRefused, nil)
	}
	ver, err := a.Store.PlaybookVersionByName(ctx, e.PlaybookID, e.Version)
	if errors.Is(err, store.ErrNotFound) {
		// The run is real but its playbook was deleted: it fails, recorded.
		return PlaybookRun{}, temporal.NewNonRetryableApplicationError(
			fmt.Sprintf("playbook %s version %s no longer exists", e.PlaybookName, e.Version), ErrTypePermanent, err)
	}
	if err != nil {
		return PlaybookRun{}, err
	}
	if e, err = a.Store.GetExecution(ctx, e.ID); err != nil {
		return PlaybookRun{}, err
	}
	res := playbook.Parse([]byte(ver.Content))
	if !res.Valid() {
		return PlaybookRun{}, temporal.NewNonRetryableApplicationError(
			fmt.Sprintf("stored playbook %q version %s does not validate: %v", e.PlaybookName, e.Version, res.Errors), ErrTypePermanent, nil)
	}
	return PlaybookRun{IncidentID: e.IncidentID, Name: e.PlaybookName, Version: e.Version,
		Definition: *res.Playbook, Variables: e.Variables.V, Steps: e.Steps.V}, nil
}

// runRequester is who requests a run's actions: the user who started it,
// or, for an automated run, nobody, which requested_by says.
func runRequester(e *store.PlaybookExecution) (name, userID string) {
	if e.TriggeredByID != "" {
		return e.TriggeredBy, e.TriggeredByID
	}
	return "playbook:" + e.PlaybookName + " (automated)", ""
}
