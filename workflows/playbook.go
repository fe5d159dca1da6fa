package workflows

import (
	"fmt"
	"time"

	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"

	"github.com/vigil-soc/vigil/activities"
	"github.com/vigil-soc/vigil/playbook"
	"github.com/vigil-soc/vigil/runview"
)

// PlaybookRunWorkflowID is the ID of one playbook execution.
func PlaybookRunWorkflowID(executionID string) string { return "playbook-run/" + executionID }

// QueryPlaybookProgress returns a running playbook's PlaybookProgress.
const QueryPlaybookProgress = "progress"

// PlaybookInput starts a Playbook workflow. Only ExecutionID counts: the
// run loads the definition of the version its execution pinned, the
// incident and the variables from the store, so later edits never change
// a running execution and nobody can hand a run a definition of their own.
// The other fields are read only by runs recorded before that change.
type PlaybookInput struct {
	ExecutionID string
	IncidentID  string
	Definition  playbook.Playbook
	Version     string
	Variables   map[string]any
	// Continued marks a run that continues an earlier one of the same
	// execution: it resumes from the step records the store holds.
	Continued bool
}

// PlaybookOutcome is how a playbook run ended.
type PlaybookOutcome struct {
	Status         string // completed, stopped, failed
	StepsCompleted int
	Error          string
}

// PlaybookProgress is what the progress query answers.
type PlaybookProgress struct {
	Status         string
	StepsCompleted int
	StepsTotal     int
	Steps          []activities.StepRecord
}

// playbookRun is one interpretation of a playbook.
type playbookRun struct {
	in        PlaybookInput
	env       playbook.Env
	records   []activities.StepRecord
	completed int
	status    string
	// view is set when the run describes itself to the Temporal UI (see
	// changeOperatorView); begun counts the steps begun, for "step N of M".
	view     bool
	begun    int
	children map[string]stepLabel
	// inline is set when the run carries out action steps itself (see
	// changePlaybookInline); waiting holds the Action workflows it waits
	// for, and wakes counts the approve and reject signals it passed on.
	inline  bool
	waiting map[string]workflow.ChildWorkflowFuture
	wakes   int
	// fromStore is set when the run loaded its execution from the store;
	// stored are the step records it found there.
	fromStore bool
	stored    []activities.StepRecord
	// begunHere counts the steps this run (not the execution) began.
	begunHere int
}

// Playbook interprets a playbook version step by step: action steps run as
// child Action workflows (so policy and approvals gate them), conditions
// choose what runs next, AI analysis asks the analyzer, parallel branches
// run at once. Between steps the run waits while the kill switch is on.
func Playbook(ctx workflow.Context, in PlaybookInput) (PlaybookOutcome, error) {
	r := &playbookRun{in: in, status: "running"}
	err := workflow.SetQueryHandler(ctx, QueryPlaybookProgress, func() (PlaybookProgress, error) {
		return PlaybookProgress{Status: r.status, StepsCompleted: r.completed, StepsTotal: r.in.Definition.StepCount(),
			Steps: r.records}, nil
	})
	if err != nil {
		return PlaybookOutcome{}, err
	}
	ctx = workflow.WithActivityOptions(ctx, workflow.ActivityOptions{
		StartToCloseTimeout: time.Minute,
		RetryPolicy: &temporal.RetryPolicy{InitialInterval: time.Second, MaximumInterval: time.Minute, MaximumAttempts: 10,
			NonRetryableErrorTypes: []string{activities.ErrTypeNotFound, activities.ErrTypePermanent}},
	})
	ctx = workflow.WithLocalActivityOptions(ctx, workflow.LocalActivityOptions{StartToCloseTimeout: 10 * time.Second})

	if r.fromStore = workflow.GetVersion(ctx, changePlaybookFromStore, workflow.DefaultVersion, 1) == 1; r.fromStore {
		if out, ok := r.loadFromStore(ctx); !ok {
			return out, nil
		}
		in = r.in
	}
	if r.view = operatorView(ctx); r.view {
		r.followChildren(ctx)
	}
	if r.inline = r.fromStore && workflow.GetVersion(ctx, changePlaybookInline, workflow.DefaultVersion, 1) == 1; r.inline {
		r.forwardWakes(ctx)
	}
	var inc playbook.IncidentEnv
	if err := workflow.ExecuteActivity(summarised(ctx, r.view, "load incident"), activityRef.LoadPlaybookIncident, in.IncidentID).Get(ctx, &inc); err != nil {
		return r.finish(ctx, "failed", "load incident: "+err.Error())
	}
	r.env = playbook.Env{Incident: inc, Variables: mergeVariables(in.Definition.Variables, in.Variables),
		Outputs: map[string]any{}, Playbook: playbook.PlaybookEnv{Name: in.Definition.Name, Version: in.Version}}

	steps := in.Definition.Steps
	start := 0
	if r.inline && in.Continued {
		start = r.resumeFrom(r.stored)
	}
	for i := start; i >= 0 && i < len(steps); {
		if r.inline && (r.begunHere >= stepsPerRun || workflow.GetInfo(ctx).GetContinueAsNewSuggested()) {
			return PlaybookOutcome{}, r.continueAsNew(ctx)
		}
		r.waitWhileHalted(ctx)
		step := steps[i]
		if step.Kind() == playbook.KindCondition {
			idx := r.begin(ctx, step)
			ok, err := playbook.Eval(step.Condition, r.env)
			if err != nil {
				r.end(ctx, idx, nil, err)
				return r.finish(ctx, "failed", fmt.Sprintf("step %q: %v", step.Name, err))
			}
			r.end(ctx, idx, map[string]any{"result": ok}, nil)
			i = in.Definition.NextIndex(i, ok)
			continue
		}
		var err error
		if step.Kind() == playbook.KindParallel {
			err = r.runParallel(ctx, step)
		} else {
			err = r.runStep(ctx, step)
		}
		if err != nil && !step.ContinueOnError {
			return r.finish(ctx, "failed", err.Error())
		}
		i++
	}
	// Running out of steps and a condition's "stop" both end a run normally.
	return r.finish(ctx, "completed", "")
}

// changePlaybookFromStore names the change after which a run loads its
// definition from the store by execution id instead of its input.
const changePlaybookFromStore = "playbook-definition-from-store"

// loadFromStore replaces the input with the execution the store records.
// A run the store does not know as its own runs nothing and records
// nothing; any other failure to load is recorded on the execution.
func (r *playbookRun) loadFromStore(ctx workflow.Context) (PlaybookOutcome, bool) {
	if len(r.in.Definition.Steps) > 0 || r.in.Definition.Name != "" {
		workflow.GetLogger(ctx).Warn("suspicious: playbook input carries a definition; ignored, the store's pinned version runs",
			"execution_id", r.in.ExecutionID)
	}
	var run activities.PlaybookRun
	err := workflow.ExecuteActivity(ctx, activityRef.LoadPlaybookRun, r.in.ExecutionID).Get(ctx, &run)
	if isErrType(err, activities.ErrTypeNotOwner) || isErrType(err, activities.ErrTypeNotFound) || isErrType(err, activities.ErrTypeRefused) {
		workflow.GetLogger(ctx).Warn("suspicious: playbook run unknown to the store; nothing runs",
			"execution_id", r.in.ExecutionID, "error", err)
		r.status = "failed"
		return PlaybookOutcome{Status: "failed", Error: rootMessage(err)}, false
	}
	if err != nil {
		out, ferr := r.finish(ctx, "failed", "load playbook run: "+err.Error())
		if ferr != nil {
			workflow.GetLogger(ctx).Error("playbook run not recorded as failed", "execution_id", r.in.ExecutionID, "error", ferr)
		}
		return out, false
	}
	r.in = PlaybookInput{ExecutionID: r.in.ExecutionID, IncidentID: run.IncidentID, Definition: run.Definition,
		Version: run.Version, Variables: run.Variables, Continued: r.in.Continued}
	r.stored = run.Steps
	return PlaybookOutcome{}, true
}

func mergeVariables(defaults, overrides map[string]any) map[string]any {
	out := make(map[string]any, len(defaults)+len(overrides))
	for k, v := range defaults {
		out[k] = v
	}
	for k, v := range overrides {
		out[k] = v
	}
	return out
}

// waitWhileHalted parks the run between steps while the kill switch is on.
func (r *playbookRun) waitWhileHalted(ctx workflow.Context) {
	for {
		halted, reason, err := r.killSwitch(ctx)
		if err != nil || !halted {
			return
		}
		r.status = "paused_by_kill_switch"
		r.show(ctx, runview.Parked(reason))
		parkUntilResumed(ctx, r.view)
		r.status = "running"
	}
}

// runParallel runs each branch in its own coroutine; the step ends when
// all branches end, and fails if any branch step failed for good.
func (r *playbookRun) runParallel(ctx workflow.Context, step playbook.Step) error {
	idx := r.begin(ctx, step)
	errs := make([]error, len(step.Parallel))
	wg := workflow.NewWaitGroup(ctx)
	for b, branch := range step.Parallel {
		wg.Add(1)
		workflow.Go(ctx, func(gctx workflow.Context) {
			defer wg.Done()
			for _, s := range branch {
				if err := r.runStep(gctx, s); err != nil && !s.ContinueOnError {
					errs[b] = err
					return
				}
			}
		})
	}
	wg.Wait(ctx)
	for _, err := range errs {
		if err != nil {
			r.end(ctx, idx, nil, err)
			return fmt.Errorf("step %q: %w", step.Name, err)
		}
	}
	r.end(ctx, idx, nil, nil)
	return nil
}

// runStep runs one action or AI analysis step and stores its output.
func (r *playbookRun) runStep(ctx workflow.Context, step playbook.Step) error {
	idx := r.begin(ctx, step)
	var (
		out map[string]any
		err error
	)
	switch step.Kind() {
	case playbook.KindAction:
		out, err = r.runAction(ctx, step)
	case playbook.KindAIAnalysis:
		var (
			ans      activities.AnalysisAnswer
			question string
		)
		if question, err = playbook.RenderText(step.AIAnalysis.Question, r.env); err != nil {
			break
		}
		err = workflow.ExecuteActivity(summarised(ctx, r.view, "AI analysis: "+step.Name), activityRef.AnswerQuestion, r.in.IncidentID, question).Get(ctx, &ans)
		out = map[string]any{"answer": ans.Answer, "classification": ans.Classification,
			"confidence": ans.Confidence, "analyzer": ans.Analyzer}
	default:
		err = fmt.Errorf("unsupported step kind %q", step.Kind())
	}
	if step.Output != "" && out != nil {
		r.env.Outputs[step.Output] = out
	}
	r.end(ctx, idx, out, err)
	if err != nil {
		return fmt.Errorf("step %q: %w", step.Name, err)
	}
	return nil
}

// runAction renders the parameters, records the action and runs it as a
// child Action workflow, waiting for it to end (approvals included).
func (r *playbookRun) runAction(ctx workflow.Context, step playbook.Step) (map[string]any, error) {
	params, err := playbook.Render(step.Parameters, r.env)
	if err != nil {
		return nil, err
	}
	if r.inline {
		return r.runActionInline(ctx, step, params)
	}
	var rec activities.RecommendedAction
	err = workflow.ExecuteActivity(summarised(ctx, r.view, "record action "+step.Action), activityRef.CreatePlaybookAction, activities.PlaybookActionRequest{
		ExecutionID: r.in.ExecutionID, IncidentID: r.in.IncidentID, Step: step.Name,
		ActionType: step.Action, Parameters: params,
	}).Get(ctx, &rec)
	if err != nil {
		return nil, err
	}
	return r.runChildAction(ctx, step, rec, 0)
}

// runChildAction runs a recorded action as a child Action workflow and
// waits for it to end (approvals included). An inline run passes on the
// wakes it received since wakesBefore, as an approver may have signalled
// the run while it still owned the action.
func (r *playbookRun) runChildAction(ctx workflow.Context, step playbook.Step, rec activities.RecommendedAction, wakesBefore int) (map[string]any, error) {
	opts := workflow.ChildWorkflowOptions{
		WorkflowID:            ActionWorkflowID(rec.ActionID),
		WorkflowIDReusePolicy: enumspb.WORKFLOW_ID_REUSE_POLICY_REJECT_DUPLICATE,
		TypedSearchAttributes: temporal.NewSearchAttributes(
			SearchActionType.ValueSet(rec.ActionType), SearchIncidentNumber.ValueSet(rec.IncidentNumber),
			SearchSeverity.ValueSet(rec.Severity), SearchIncidentType.ValueSet(rec.IncidentType),
			SearchPlaybookName.ValueSet(r.in.Definition.Name),
		),
	}
	if r.view {
		opts.StaticSummary, opts.StaticDetails = rec.Summary, rec.Details
		r.children[rec.ActionID] = r.labelOf(step)
	}
	cctx := workflow.WithChildOptions(ctx, opts)
	child := workflow.ExecuteChildWorkflow(cctx, Action, ActionInput{ActionID: rec.ActionID})
	if r.inline {
		if err := child.GetChildWorkflowExecution().Get(ctx, nil); err == nil {
			r.waiting[rec.ActionID] = child
			defer delete(r.waiting, rec.ActionID)
			if r.wakes != wakesBefore {
				r.wake(ctx, rec.ActionID, SignalApprove, nil)
			}
		}
	}
	var outcome ActionOutcome
	if err := child.Get(ctx, &outcome); err != nil {
		return nil, err
	}
	out := actionStepOutput(rec.ActionID, outcome)
	if outcome.Status != "completed" {
		return out, fmt.Errorf("action %s ended %s: %s", step.Action, outcome.Status, outcome.Error)
	}
	return out, nil
}

// begin records a step's start and returns its record index.
func (r *playbookRun) begin(ctx workflow.Context, step playbook.Step) int {
	now := workflow.Now(ctx).UTC()
	r.records = append(r.records, activities.StepRecord{Name: step.Name, Kind: step.Kind(), Status: "running", StartedAt: &now})
	if r.view {
		r.begun++
		r.show(ctx, r.labelOf(step).String(""))
	}
	// Take the index before saving: saving yields, and a parallel branch
	// may append its own record meanwhile.
	idx := len(r.records) - 1
	r.begunHere++
	if !r.inline {
		r.save(ctx)
	}
	return idx
}

// end records a step's end.
func (r *playbookRun) end(ctx workflow.Context, idx int, out map[string]any, err error) {
	now := workflow.Now(ctx).UTC()
	rec := &r.records[idx]
	rec.CompletedAt, rec.Output = &now, out
	if err != nil {
		rec.Status, rec.Error = "failed", err.Error()
	} else {
		rec.Status = "completed"
		r.completed++
	}
	if !r.inline || r.completed%progressEvery == 0 {
		r.save(ctx)
	}
}

// save mirrors the count of finished steps to the store; the step records
// themselves are answered by the progress query while the run lasts and
// stored when it ends, so a step costs the same however long the playbook
// is. A failed write is logged; the run goes on.
func (r *playbookRun) save(ctx workflow.Context) {
	err := workflow.ExecuteLocalActivity(summarisedLocal(ctx, r.view, "record progress"), activityRef.RecordPlaybookProgress, r.in.ExecutionID, r.completed).Get(ctx, nil)
	if err != nil {
		workflow.GetLogger(ctx).Warn("playbook progress not recorded", "error", err)
	}
}

func (r *playbookRun) finish(ctx workflow.Context, status, reason string) (PlaybookOutcome, error) {
	r.status = status
	r.show(ctx, runview.Ended(status, fmt.Sprintf("%d of %d steps completed", r.completed, r.in.Definition.StepCount())))
	dctx, cancel := workflow.NewDisconnectedContext(ctx)
	defer cancel()
	dctx = summarised(dctx, r.view, "record the run as "+status)
	err := workflow.ExecuteActivity(dctx, activityRef.FinishPlaybookExecution, r.in.ExecutionID, status, reason, r.records, r.completed).Get(dctx, nil)
	if err != nil {
		return PlaybookOutcome{}, err
	}
	return PlaybookOutcome{Status: status, StepsCompleted: r.completed, Error: reason}, nil
}
