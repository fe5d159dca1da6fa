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
	e, err := a.ownedExecution(ctx, req.ExecutionID)
	if err != nil {
		return RecommendedAction{}, err
	}
	inc, err := a.Store.GetIncident(ctx, e.IncidentID)
	if err != nil {
		return RecommendedAction{}, permanentIfNotFound(err)
	}
	typ, ok := actions.Lookup(req.ActionType)
	if !ok {
		return RecommendedAction{}, temporal.NewNonRetryableApplicationError("unknown action "+req.ActionType, ErrTypePermanent, nil)
	}
	params, bad := typ.Validate(req.Parameters)
	if len(bad) > 0 {
		return RecommendedAction{}, temporal.NewNonRetryableApplicationError(
			"invalid parameters for "+req.ActionType+": "+formatProblems(bad), ErrTypePermanent, nil)
	}
	id := uuid.NewSHA1(actionNamespace, []byte("playbook/"+req.ExecutionID+"/"+req.Step)).String()
	act := &store.Action{ID: id, IncidentID: &inc.ID, ActionType: req.ActionType, Parameters: store.NewJSON(params),
		WorkflowID: "action/" + id}
	act.RequestedBy, act.RequestedByID = runRequester(e)
	if err := a.Store.CreateAction(ctx, act); err != nil && !errors.Is(err, store.ErrConflict) {
		return RecommendedAction{}, err
	}
	return a.recommended(act, inc, fmt.Sprintf("playbook %q, step %q", e.PlaybookName, req.Step)), nil
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
