package activities

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/google/uuid"
	"go.temporal.io/sdk/temporal"

	"github.com/vigil-soc/vigil/actions"
	"github.com/vigil-soc/vigil/playbook"
	"github.com/vigil-soc/vigil/store"
	"github.com/vigil-soc/vigil/workflows/workflowid"
)

// StepRecord is the recorded progress of one playbook step.
type StepRecord = store.StepRecord

// AnalysisAnswer is what an AI analysis step learns.
type AnalysisAnswer struct {
	Answer         string
	Classification string
	Confidence     float64
	Analyzer       string
}

// PlaybookActionRequest asks for the action of one playbook step.
type PlaybookActionRequest struct {
	ExecutionID string
	IncidentID  string
	Step        string
	ActionType  string
	Parameters  map[string]any
}

// InlineAction is a playbook step's action recorded for the run itself to
// carry out. RunOwns is false when the store records another owner: the
// action was handed over to its own Action workflow before.
type InlineAction struct {
	RecommendedAction
	RunOwns bool
}

// LoadPlaybookIncident snapshots the incident a playbook run works on.
func (a *Activities) LoadPlaybookIncident(ctx context.Context, incidentID string) (playbook.IncidentEnv, error) {
	inc, err := a.Store.GetIncident(ctx, incidentID)
	if err != nil {
		return playbook.IncidentEnv{}, permanentIfNotFound(err)
	}
	env := playbook.IncidentEnv{ID: inc.ID, Number: inc.IncidentNumber, Type: inc.IncidentType, Severity: inc.Severity,
		Source: inc.Source, Title: inc.Title, Status: inc.Status, RawData: inc.RawData.V,
		RecommendedActions: inc.RecommendedActions.V}
	if v := inc.Verdict.V; v != nil {
		env.Verdict = playbook.VerdictEnv{Classification: v.Classification, Confidence: v.Confidence,
			Category: v.Category, Reasoning: v.Reasoning}
	}
	return env, nil
}

// CreatePlaybookAction validates a step's rendered parameters and records
// its action with an id derived from the execution and step, so a retry
// finds the same action.
func (a *Activities) CreatePlaybookAction(ctx context.Context, req PlaybookActionRequest) (RecommendedAction, error) {
	rec, _, err := a.recordPlaybookAction(ctx, req, false)
	return rec, err
}

// CreateInlinePlaybookAction is CreatePlaybookAction for a run that carries
// out its steps' actions itself: the action is recorded as the run's own
// (its workflow id is the run's), so the run's workflow and no other may
// decide, claim and record it.
func (a *Activities) CreateInlinePlaybookAction(ctx context.Context, req PlaybookActionRequest) (InlineAction, error) {
	rec, act, err := a.recordPlaybookAction(ctx, req, true)
	if err != nil {
		return InlineAction{}, err
	}
	return InlineAction{RecommendedAction: rec, RunOwns: act.WorkflowID == callerWorkflow(ctx)}, nil
}

// recordPlaybookAction records a step's action, owned by the run itself
// when inline and by its own Action workflow otherwise; when the action
// exists already it returns the stored one, owner included.
func (a *Activities) recordPlaybookAction(ctx context.Context, req PlaybookActionRequest, inline bool) (RecommendedAction, *store.Action, error) {
	e, err := a.ownedExecution(ctx, req.ExecutionID)
	if err != nil {
		return RecommendedAction{}, nil, err
	}
	inc, err := a.Store.GetIncident(ctx, e.IncidentID)
	if err != nil {
		return RecommendedAction{}, nil, permanentIfNotFound(err)
	}
	typ, ok := actions.Lookup(req.ActionType)
	if !ok {
		return RecommendedAction{}, nil, temporal.NewNonRetryableApplicationError("unknown action "+req.ActionType, ErrTypePermanent, nil)
	}
	params, bad := typ.Validate(req.Parameters)
	if len(bad) > 0 {
		return RecommendedAction{}, nil, temporal.NewNonRetryableApplicationError(
			"invalid parameters for "+req.ActionType+": "+formatProblems(bad), ErrTypePermanent, nil)
	}
	id := uuid.NewSHA1(actionNamespace, []byte("playbook/"+req.ExecutionID+"/"+req.Step)).String()
	act := &store.Action{ID: id, IncidentID: &inc.ID, ActionType: req.ActionType, Parameters: store.NewJSON(params),
		WorkflowID: workflowid.Action(id)}
	if inline {
		act.WorkflowID = e.WorkflowID
	}
	act.RequestedBy, act.RequestedByID = runRequester(e)
	err = a.Store.CreateAction(ctx, act)
	if errors.Is(err, store.ErrConflict) {
		// A retry, or a run resumed after a crash: the first record stands.
		act, err = a.Store.GetAction(ctx, id)
	}
	if err != nil {
		return RecommendedAction{}, nil, err
	}
	return a.recommended(act, inc, fmt.Sprintf("playbook %q, step %q", e.PlaybookName, req.Step)), act, nil
}

// AnswerQuestion runs the triage analyzer over the incident and answers a
// playbook's question with its verdict and reasoning. The built-in
// analyzer answers every question with its assessment of the incident.
func (a *Activities) AnswerQuestion(ctx context.Context, incidentID, question string) (AnalysisAnswer, error) {
	ev, err := a.ExtractIndicators(ctx, incidentID)
	if err != nil {
		return AnalysisAnswer{}, err
	}
	ev, _ = a.EnrichIndicators(ctx, ev)
	an, err := a.Analyzer.Analyze(ctx, ev.Incident, ev.Indicators)
	if err != nil {
		return AnalysisAnswer{}, err
	}
	return AnalysisAnswer{Answer: an.Verdict.Reasoning, Classification: an.Verdict.Classification,
		Confidence: an.Verdict.Confidence, Analyzer: an.Analyzer}, nil
}

// KillSwitchActive reports whether automation is halted.
func (a *Activities) KillSwitchActive(ctx context.Context) (bool, error) {
	ks, err := a.Store.KillSwitch(ctx)
	return ks.Active, err
}

// RecordPlaybookProgress stores how many steps a running execution has
// finished.
func (a *Activities) RecordPlaybookProgress(ctx context.Context, executionID string, completed int) error {
	if _, err := a.ownedExecution(ctx, executionID); err != nil {
		return err
	}
	return a.Store.RecordExecutionProgress(ctx, executionID, completed)
}

// CheckpointRequest carries a running execution's step records to the
// store before the run continues as new.
type CheckpointRequest struct {
	ExecutionID string
	Steps       []StepRecord
	Completed   int
}

// CheckpointPlaybookExecution stores a running execution's step records;
// the run that continues it reads them back with LoadPlaybookRun.
func (a *Activities) CheckpointPlaybookExecution(ctx context.Context, req CheckpointRequest) error {
	if _, err := a.ownedExecution(ctx, req.ExecutionID); err != nil {
		return err
	}
	return a.Store.CheckpointExecution(ctx, req.ExecutionID, req.Steps, req.Completed)
}

// HandOverPlaybookAction gives an action the run owns, which waits for
// approval, to its own Action workflow, which approvers wake. Only the
// owning run may, and only before the action is claimed.
func (a *Activities) HandOverPlaybookAction(ctx context.Context, actionID string) error {
	if act, err := a.Store.GetAction(ctx, actionID); err == nil && act.WorkflowID == workflowid.Action(act.ID) {
		// Handed over by an attempt whose result was lost; this changes
		// nothing, so it needs no owner.
		return nil
	}
	act, err := a.ownedAction(ctx, actionID)
	if err != nil {
		return err
	}
	ok, err := a.Store.HandOverAction(ctx, act.ID, act.WorkflowID, workflowid.Action(act.ID))
	if err != nil {
		return err
	}
	if !ok {
		return temporal.NewNonRetryableApplicationError(
			fmt.Sprintf("action %s cannot be handed over: claimed, ended or not the run's own", act.ID), ErrTypeRefused, nil)
	}
	return nil
}

// FinishPlaybookExecution records how a run ended.
func (a *Activities) FinishPlaybookExecution(ctx context.Context, executionID, status, reason string, steps []StepRecord, completed int) error {
	if _, err := a.ownedExecution(ctx, executionID); err != nil {
		return err
	}
	return a.Store.FinishExecution(ctx, executionID, status, reason, steps, completed)
}

// formatProblems renders validation problems in a stable order.
func formatProblems(bad map[string]string) string {
	keys := make([]string, 0, len(bad))
	for k := range bad {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := make([]string, 0, len(keys))
	for _, k := range keys {
		parts = append(parts, k+" "+bad[k])
	}
	return strings.Join(parts, "; ")
}
