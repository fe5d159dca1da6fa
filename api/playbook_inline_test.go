package api_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"go.temporal.io/api/enums/v1"
	"go.temporal.io/api/serviceerror"
	"go.temporal.io/sdk/client"

	"github.com/vigil-soc/vigil/internal/testenv"
	"github.com/vigil-soc/vigil/store"
	"github.com/vigil-soc/vigil/workflows"
)

// ticketSteps is a playbook of n create_ticket steps, which policy runs
// without approval.
func ticketSteps(name string, n int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "name: %s\nsteps:\n", name)
	for i := range n {
		fmt.Fprintf(&b, "  - name: s%d\n    action: create_ticket\n    parameters:\n      title: \"step %d of {{ incident.number }}\"\n", i, i)
	}
	return b.String()
}

// runToEnd runs a playbook on a fresh incident through the API and waits
// until the store records its end.
func runToEnd(t *testing.T, content string) (*store.PlaybookExecution, string) {
	t.Helper()
	p := createPlaybook(t, content)
	key := keyFor(t, store.RoleAnalyst)
	inc := createIncident(t, key, map[string]any{"incident_type": "inline", "source": "test", "severity": "low"})
	r := call(t, http.MethodPost, "/api/playbooks/"+p["id"].(string)+"/run", key, map[string]any{"incident_id": inc["id"]})
	if r.Status != http.StatusCreated && r.Status != http.StatusAccepted {
		t.Fatalf("run: %s", r.Raw)
	}
	execID := r.data()["execution_id"].(string)
	var e *store.PlaybookExecution
	testenv.Eventually(t, 90*time.Second, func() bool {
		var err error
		e, err = env.store.GetExecution(context.Background(), execID)
		return err == nil && e.Status != store.ExecutionRunning
	}, "playbook run did not end")
	return e, inc["id"].(string)
}

// TestInlineStepsAreClaimedByTheRun: actions that need no approval run in
// the playbook run itself. The store records the run's workflow as each
// action's owner and claimant, and no Action workflow exists for them.
func TestInlineStepsAreClaimedByTheRun(t *testing.T) {
	e, incID := runToEnd(t, ticketSteps("inline-"+randomSuffix(), 3))
	if e.Status != store.ExecutionCompleted || e.StepsCompleted != 3 || len(e.Steps.V) != 3 {
		t.Fatalf("execution %s, %d steps completed, %d recorded: %s", e.Status, e.StepsCompleted, len(e.Steps.V), e.Error)
	}
	acts, err := env.store.ListActions(context.Background(), store.ActionFilter{IncidentID: incID})
	if err != nil {
		t.Fatal(err)
	}
	if len(acts) != 3 {
		t.Fatalf("%d actions, want 3", len(acts))
	}
	for _, a := range acts {
		if a.Status != store.ActionCompleted || a.WorkflowID != e.WorkflowID || a.ClaimedBy != e.WorkflowID {
			t.Fatalf("action %s: status %s, workflow %q, claimed by %q; want completed, owned and claimed by %q",
				a.ID, a.Status, a.WorkflowID, a.ClaimedBy, e.WorkflowID)
		}
		_, err := env.temporal.DescribeWorkflowExecution(context.Background(), workflows.ActionWorkflowID(a.ID), "")
		var nf *serviceerror.NotFound
		if !errors.As(err, &nf) {
			t.Fatalf("an Action workflow exists for inline action %s (err %v)", a.ID, err)
		}
	}
}

// TestHandStartedActionWorkflowCannotRunAnInlineAction: someone who can
// reach the Temporal frontend starts an Action workflow for an action a
// playbook run owns. It may not decide, claim or record anything.
func TestHandStartedActionWorkflowCannotRunAnInlineAction(t *testing.T) {
	e, incID := runToEnd(t, ticketSteps("inline-forged-"+randomSuffix(), 1))
	acts, err := env.store.ListActions(context.Background(), store.ActionFilter{IncidentID: incID})
	if err != nil || len(acts) != 1 {
		t.Fatalf("actions %v, %v", acts, err)
	}
	before := acts[0]
	ctx := context.Background()
	wr, err := env.temporal.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: workflows.ActionWorkflowID(before.ID), TaskQueue: workflows.TaskQueue},
		workflows.Action, workflows.ActionInput{ActionID: before.ID})
	if err != nil {
		t.Fatal(err)
	}
	// The store knows the run, not this workflow, as the action's own:
	// every activity refuses it, so it cannot even record its failure.
	var out workflows.ActionOutcome
	if err := wr.Get(ctx, &out); err == nil || !strings.Contains(err.Error(), "is not the workflow of action") {
		t.Fatalf("hand-started Action workflow ended %+v, %v; want refused as not the action's own", out, err)
	}
	after, err := env.store.GetAction(ctx, before.ID)
	if err != nil {
		t.Fatal(err)
	}
	if after.ClaimedBy != e.WorkflowID || after.WorkflowID != e.WorkflowID || after.Status != store.ActionCompleted ||
		!after.UpdatedAt.Equal(before.UpdatedAt) {
		t.Fatalf("a hand-started workflow changed the run's action: before %+v, after %+v", before, after)
	}
}

// TestLongPlaybookContinuesAsNew: a run longer than one run's share of
// steps continues as new, resumes from the step records the store holds
// and ends with every step recorded once, in order.
func TestLongPlaybookContinuesAsNew(t *testing.T) {
	const n = 110
	e, _ := runToEnd(t, ticketSteps("inline-long-"+randomSuffix(), n))
	if e.Status != store.ExecutionCompleted || e.StepsCompleted != n || len(e.Steps.V) != n {
		t.Fatalf("execution %s, %d steps completed, %d recorded: %s", e.Status, e.StepsCompleted, len(e.Steps.V), e.Error)
	}
	for i, s := range e.Steps.V {
		if s.Name != fmt.Sprintf("s%d", i) || s.Status != "completed" {
			t.Fatalf("step record %d: %+v", i, s)
		}
	}
	it := env.temporal.GetWorkflowHistory(context.Background(), e.WorkflowID, "", false, enums.HISTORY_EVENT_FILTER_TYPE_ALL_EVENT)
	ev, err := it.Next()
	if err != nil {
		t.Fatal(err)
	}
	if ev.GetWorkflowExecutionStartedEventAttributes().GetContinuedExecutionRunId() == "" {
		t.Fatalf("the last run of a %d-step playbook did not continue an earlier one", n)
	}
}

// TestApprovalSignalToTheRunReachesTheHandedOverAction: an approver who
// read a step's action while the playbook run still owned it signals the
// run, not the action's own workflow. The run passes the wake on, and the
// action, whose approval the store records, runs.
func TestApprovalSignalToTheRunReachesTheHandedOverAction(t *testing.T) {
	p := createPlaybook(t, fmt.Sprintf("name: wake-%s\nsteps:\n  - name: isolate\n    action: isolate_host\n    parameters:\n      host_id: ws-%s\n",
		randomSuffix(), randomSuffix()))
	key := keyFor(t, store.RoleAnalyst)
	inc := createIncident(t, key, map[string]any{"incident_type": "malware", "source": "edr", "severity": "critical"})
	r := call(t, http.MethodPost, "/api/playbooks/"+p["id"].(string)+"/run", key, map[string]any{"incident_id": inc["id"]})
	expectStatus(t, r, http.StatusAccepted)
	execID, runWF := r.data()["execution_id"].(string), r.data()["workflow_id"].(string)
	ctx := context.Background()
	var act *store.Action
	testenv.Eventually(t, 20*time.Second, func() bool {
		acts, err := env.store.ListActions(ctx, store.ActionFilter{IncidentID: inc["id"].(string)})
		if err != nil || len(acts) != 1 || acts[0].WorkflowID != workflows.ActionWorkflowID(acts[0].ID) {
			return false
		}
		act = &acts[0]
		d, err := env.temporal.DescribeWorkflowExecution(ctx, act.WorkflowID, "")
		return err == nil && d.WorkflowExecutionInfo.Status == enums.WORKFLOW_EXECUTION_STATUS_RUNNING
	}, "the isolation was not handed to its own workflow")
	name := "senior-" + randomSuffix()
	senior, err := env.store.CreateUser(ctx, store.NewUser{Username: name, Email: name + "@example.com", Role: store.RoleSenior})
	if err != nil {
		t.Fatal(err)
	}
	// The approval as the API records it, then the wake sent to the run.
	if won, err := env.store.ClaimApproval(ctx, act.ID, senior, ""); err != nil || !won {
		t.Fatalf("approve: %v %v", won, err)
	}
	if err := env.temporal.SignalWorkflow(ctx, runWF, "", workflows.SignalApprove, workflows.ApproveSignal{By: name}); err != nil {
		t.Fatal(err)
	}
	var e *store.PlaybookExecution
	testenv.Eventually(t, 30*time.Second, func() bool {
		e, err = env.store.GetExecution(ctx, execID)
		return err == nil && e.Status != store.ExecutionRunning
	}, "the approved action never ran: the wake did not reach it")
	if e.Status != store.ExecutionCompleted {
		t.Fatalf("run ended %s: %s", e.Status, e.Error)
	}
}
