package workflows

import (
	"context"
	"errors"

	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/api/serviceerror"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"
)

// Start describes a Vigil run to start: its ID (from the helpers in this
// package), what the Temporal UI shows for it, and the search attributes it
// is found by. Every run is started through it, from the API, the
// dispatcher or a parent workflow, so they all share the task queue and the
// ID reuse policy: an ID names one run, never a second one.
type Start struct {
	ID      string
	Summary string
	Details string
	Attrs   []temporal.SearchAttributeUpdate
	// Queue is the task queue; empty means TaskQueue (tests name their own).
	Queue string
}

// IncidentAttrs are the search attributes of a run about an incident.
func IncidentAttrs(number, severity, incidentType string) []temporal.SearchAttributeUpdate {
	return []temporal.SearchAttributeUpdate{SearchIncidentNumber.ValueSet(number),
		SearchSeverity.ValueSet(severity), SearchIncidentType.ValueSet(incidentType)}
}

// Options are the client options that start s.
func (s Start) Options() client.StartWorkflowOptions {
	queue := s.Queue
	if queue == "" {
		queue = TaskQueue
	}
	return client.StartWorkflowOptions{
		ID: s.ID, TaskQueue: queue,
		StaticSummary: s.Summary, StaticDetails: s.Details,
		WorkflowIDReusePolicy: enumspb.WORKFLOW_ID_REUSE_POLICY_REJECT_DUPLICATE,
		TypedSearchAttributes: temporal.NewSearchAttributes(s.Attrs...),
		// When the starting process also runs a worker on the queue
		// (vigil serve), the run's first workflow task comes back with the
		// start instead of through a poll; otherwise the start is an
		// ordinary one.
		EnableEagerStart: true,
	}
}

// Run starts wf with args as s describes. A run already started under the
// ID counts as started: callers record the run before starting it and may
// start it again after a crash or a retry.
func (s Start) Run(ctx context.Context, c client.Client, wf any, args ...any) error {
	_, err := c.ExecuteWorkflow(ctx, s.Options(), wf, args...)
	var started *serviceerror.WorkflowExecutionAlreadyStarted
	if errors.As(err, &started) {
		return nil
	}
	return err
}

// ChildOptions are the options that start s as a child of a workflow.
// Only a run that describes itself (see changeOperatorView) names its
// children in the UI; older runs started them without a summary.
func (s Start) ChildOptions(view bool) workflow.ChildWorkflowOptions {
	o := workflow.ChildWorkflowOptions{
		WorkflowID:            s.ID,
		WorkflowIDReusePolicy: enumspb.WORKFLOW_ID_REUSE_POLICY_REJECT_DUPLICATE,
		TypedSearchAttributes: temporal.NewSearchAttributes(s.Attrs...),
	}
	if view {
		o.StaticSummary, o.StaticDetails = s.Summary, s.Details
	}
	return o
}
