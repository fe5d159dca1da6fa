package workflows_test

import (
	"errors"
	"fmt"
	"testing"

	"github.com/stretchr/testify/mock"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/testsuite"
	"go.temporal.io/sdk/workflow"

	"github.com/vigil-soc/vigil/activities"
	"github.com/vigil-soc/vigil/internal/testenv"
	"github.com/vigil-soc/vigil/triage"
	"github.com/vigil-soc/vigil/workflows"
)

// TestTriageWorkflowRunsStepsInOrder covers runs started before the quick
// steps became one local activity: one activity per step.
func TestTriageWorkflowRunsStepsInOrder(t *testing.T) {
	var s testsuite.WorkflowTestSuite
	env := s.NewTestWorkflowEnvironment()
	var acts *activities.Activities
	env.RegisterActivity(acts)
	env.OnGetVersion("triage-consolidated-1", workflow.DefaultVersion, 1).Return(workflow.DefaultVersion)
	env.OnGetVersion("triage-in-process", workflow.DefaultVersion, 1).Return(workflow.DefaultVersion)

	ev := activities.Evidence{
		Incident:   triage.Incident{IncidentType: "phishing"},
		Indicators: triage.Indicators{Domains: []string{"micros0ft-support.com"}},
	}
	analysis := triage.Analysis{
		Verdict:            triage.Verdict{Classification: "malicious", Confidence: 0.93},
		RecommendedActions: []string{"quarantine_email"},
		Analyzer:           "builtin",
	}
	enriched := ev
	enriched.Incident.Intel = []triage.Reputation{{Type: "domain", Value: "micros0ft-support.com", Verdict: "malicious", Score: 90}}
	env.OnActivity(acts.ExtractIndicators, mock.Anything, "inc-1").Return(ev, nil).Once()
	env.OnActivity(acts.EnrichIndicators, mock.Anything, ev).Return(enriched, nil).Once()
	env.OnActivity(acts.AnalyzeIncident, mock.Anything, enriched).Return(analysis, nil).Once()
	env.OnActivity(acts.RecordVerdictWithIntel, mock.Anything, "tri-1", enriched, analysis).
		Return(activities.TriageRecord{TriageID: "tri-1", DurationMS: 42}, nil).Once()

	env.ExecuteWorkflow(workflows.Triage, workflows.TriageInput{IncidentID: "inc-1", TriageID: "tri-1"})
	res := triageResult(t, env)
	if res.Verdict.Classification != "malicious" || res.DurationMS != 42 || res.TriageID != "tri-1" {
		t.Fatalf("result %+v", res)
	}
	env.AssertExpectations(t)
}

func TestTriageWorkflowRecordsFailure(t *testing.T) {
	var s testsuite.WorkflowTestSuite
	env := s.NewTestWorkflowEnvironment()
	var acts *activities.Activities
	env.RegisterActivity(acts)
	notFound := temporal.NewNonRetryableApplicationError("load incident: not found", activities.ErrTypeNotFound, errors.New("not found"))
	env.OnActivity(acts.TriageInProcess, mock.Anything, activities.TriageStepInput{IncidentID: "gone", TriageID: "tri-2"}).
		Return(activities.TriageStep{}, notFound).Once()
	var reason string
	env.OnActivity(acts.FailTriage, mock.Anything, "tri-2", mock.Anything).
		Run(func(args mock.Arguments) { reason = args.String(2) }).Return(nil).Once()

	env.ExecuteWorkflow(workflows.Triage, workflows.TriageInput{IncidentID: "gone", TriageID: "tri-2"})
	if env.GetWorkflowError() == nil {
		t.Fatal("workflow succeeded without an incident")
	}
	if reason == "" {
		t.Fatal("failure reason not recorded")
	}
	env.AssertExpectations(t)
}

func TestTriageWorkflowID(t *testing.T) {
	if got := workflows.TriageWorkflowID("i", "t"); got != "triage/i/t" {
		t.Fatalf("TriageWorkflowID = %q", got)
	}
}

func TestTestServerRegistersEverySearchAttribute(t *testing.T) {
	if fmt.Sprint(testenv.SearchAttributeNames) != fmt.Sprint(workflows.SearchAttributeNames) {
		t.Fatalf("testenv registers %v, workflows use %v", testenv.SearchAttributeNames, workflows.SearchAttributeNames)
	}
}
