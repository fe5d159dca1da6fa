package workflows_test

import (
	"testing"

	"github.com/stretchr/testify/mock"
	"go.temporal.io/sdk/testsuite"

	"github.com/vigil-soc/vigil/activities"
	"github.com/vigil-soc/vigil/triage"
	"github.com/vigil-soc/vigil/workflows"
)

func newTriageEnv() (*testsuite.TestWorkflowEnvironment, *activities.Activities) {
	var s testsuite.WorkflowTestSuite
	env := s.NewTestWorkflowEnvironment()
	var acts *activities.Activities
	env.RegisterActivity(acts)
	return env, acts
}

func triageResult(t *testing.T, env *testsuite.TestWorkflowEnvironment) workflows.TriageResult {
	t.Helper()
	if !env.IsWorkflowCompleted() {
		t.Fatal("workflow did not complete")
	}
	if err := env.GetWorkflowError(); err != nil {
		t.Fatal(err)
	}
	var res workflows.TriageResult
	if err := env.GetWorkflowResult(&res); err != nil {
		t.Fatal(err)
	}
	return res
}

var phishingAnalysis = triage.Analysis{
	Verdict:            triage.Verdict{Classification: "malicious", Confidence: 0.93},
	RecommendedActions: []string{"quarantine_email", "block_sender"},
	Analyzer:           "builtin",
}

// With the built-in analyzer the whole triage is one local activity: no
// regular activity runs (the mock fails any activity it was not told of).
func TestTriageWithBuiltinRulesIsOneLocalActivity(t *testing.T) {
	env, acts := newTriageEnv()
	in := activities.TriageStepInput{IncidentID: "inc-1", TriageID: "tri-1"}
	env.OnActivity(acts.TriageInProcess, mock.Anything, in).Return(activities.TriageStep{Outcome: activities.TriageOutcome{
		Analysis: phishingAnalysis, Record: activities.TriageRecord{TriageID: "tri-1", DurationMS: 7},
	}}, nil).Once()

	env.ExecuteWorkflow(workflows.Triage, workflows.TriageInput{IncidentID: "inc-1", TriageID: "tri-1"})
	res := triageResult(t, env)
	if res.Verdict.Classification != "malicious" || res.DurationMS != 7 || res.Analyzer != "builtin" ||
		len(res.RecommendedActions) != 2 || len(res.RequestedActions) != 0 {
		t.Fatalf("result %+v", res)
	}
	env.AssertExpectations(t)
}

// When the analyzer calls out to a model, the analysis is a regular
// activity between the quick steps and the record.
func TestTriageWithAModelAnalysesInAnActivityOfItsOwn(t *testing.T) {
	env, acts := newTriageEnv()
	in := activities.TriageStepInput{IncidentID: "inc-1", TriageID: "tri-1"}
	ev := activities.Evidence{Incident: triage.Incident{IncidentType: "phishing"},
		Indicators: triage.Indicators{Domains: []string{"micros0ft-support.com"}}}
	llm := phishingAnalysis
	llm.Analyzer, llm.Model = "llm", "local-model"
	env.OnActivity(acts.TriageInProcess, mock.Anything, in).Return(activities.TriageStep{Evidence: &ev}, nil).Once()
	env.OnActivity(acts.AnalyzeIncident, mock.Anything, ev).Return(llm, nil).Once()
	env.OnActivity(acts.FinishTriage, mock.Anything, activities.FinishTriageInput{TriageStepInput: in, Evidence: ev, Analysis: llm}).
		Return(activities.TriageOutcome{Analysis: llm, Record: activities.TriageRecord{TriageID: "tri-1", DurationMS: 900}}, nil).Once()

	env.ExecuteWorkflow(workflows.Triage, workflows.TriageInput{IncidentID: "inc-1", TriageID: "tri-1"})
	res := triageResult(t, env)
	if res.Analyzer != "llm" || res.DurationMS != 900 {
		t.Fatalf("result %+v", res)
	}
	env.AssertExpectations(t)
}

// An automated run starts every prepared action as a child run, all at
// once, and reports those that started.
func TestAutomatedTriageStartsItsRecommendedActions(t *testing.T) {
	env, acts := newTriageEnv()
	env.RegisterWorkflow(workflows.Action)
	in := activities.TriageStepInput{IncidentID: "inc-1", TriageID: "tri-1", RequestActions: true}
	recs := []activities.RecommendedAction{
		{ActionID: "act-1", ActionType: "quarantine_email", IncidentNumber: "INC-2026-0001", Severity: "high", IncidentType: "phishing"},
		{ActionID: "act-2", ActionType: "block_sender", IncidentNumber: "INC-2026-0001", Severity: "high", IncidentType: "phishing"},
	}
	env.OnActivity(acts.TriageInProcess, mock.Anything, in).Return(activities.TriageStep{Outcome: activities.TriageOutcome{
		Analysis: phishingAnalysis, Record: activities.TriageRecord{TriageID: "tri-1"}, Recommended: recs,
	}}, nil).Once()
	var children []string
	env.OnWorkflow(workflows.Action, mock.Anything, mock.Anything).Run(func(args mock.Arguments) {
		children = append(children, args.Get(1).(workflows.ActionInput).ActionID)
	}).Return(nil)

	env.ExecuteWorkflow(workflows.Triage, workflows.TriageInput{IncidentID: "inc-1", TriageID: "tri-1", RequestActions: true})
	res := triageResult(t, env)
	if len(res.RequestedActions) != 2 || res.RequestedActions[0] != "act-1" || res.RequestedActions[1] != "act-2" {
		t.Fatalf("requested %v", res.RequestedActions)
	}
	if len(children) != 2 {
		t.Fatalf("child runs started for %v, want both actions", children)
	}
}
