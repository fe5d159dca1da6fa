// Package workflows holds Vigil's Temporal workflows (deterministic
// orchestration only) and the names the API shares with them: the task
// queue, workflow ID helpers and search attribute keys.
package workflows

import (
	"go.temporal.io/sdk/temporal"

	"github.com/vigil-soc/vigil/store"
	"github.com/vigil-soc/vigil/workflows/workflowid"
)

// TaskQueue is the one task queue every Vigil worker polls.
const TaskQueue = "vigil"

// Search attribute keys. They must be registered on the namespace as
// Keyword attributes (make run and the test server do this).
var (
	SearchIncidentNumber = temporal.NewSearchAttributeKeyKeyword("IncidentNumber")
	SearchSeverity       = temporal.NewSearchAttributeKeyKeyword("Severity")
	SearchIncidentType   = temporal.NewSearchAttributeKeyKeyword("IncidentType")
	SearchActionType     = temporal.NewSearchAttributeKeyKeyword("ActionType")
	SearchPlaybookName   = temporal.NewSearchAttributeKeyKeyword("PlaybookName")
	// SearchActionStatus is an Action run's state, kept current by the
	// run itself: pending_approval, executing, completed, failed, rejected.
	SearchActionStatus = temporal.NewSearchAttributeKeyKeyword("ActionStatus")
	// SearchApprovalLevel is the level a waiting action needs.
	SearchApprovalLevel = temporal.NewSearchAttributeKeyKeyword("ApprovalLevel")
	// SearchHuntName is the name of the hunt a hunt run belongs to.
	SearchHuntName = temporal.NewSearchAttributeKeyKeyword("HuntName")
)

// Values of SearchActionStatus and of ActionOutcome.Status. Those the
// store also records are the store's own; executing is shown only while a
// run calls its connector.
const (
	ActionStatusPendingApproval = store.ActionPendingApproval
	ActionStatusExecuting       = "executing"
	ActionStatusCompleted       = store.ActionCompleted
	ActionStatusFailed          = store.ActionFailed
	ActionStatusRejected        = store.ActionRejected
)

// SearchAttributeNames lists the custom search attributes Vigil uses, for
// registering them on a namespace. All are Keyword attributes, and SQL
// visibility (PostgreSQL, MySQL, SQLite) allows 10 custom Keyword
// attributes per namespace: Vigil uses 8 of them, leaving 2.
var SearchAttributeNames = []string{"IncidentNumber", "Severity", "IncidentType", "ActionType", "PlaybookName",
	"ActionStatus", "ApprovalLevel", "HuntName"}

// TriageWorkflowID is the ID of one triage run of an incident.
func TriageWorkflowID(incidentID, triageID string) string {
	return workflowid.Triage(incidentID, triageID)
}

// ActionWorkflowID is the ID of the workflow that carries one action.
func ActionWorkflowID(actionID string) string { return workflowid.Action(actionID) }

// KillSwitchWorkflowID is the singleton that holds the kill switch state.
const KillSwitchWorkflowID = workflowid.KillSwitch

// Signal and query names shared with the API.
const (
	// SignalApprove carries an ApproveSignal to a waiting Action workflow.
	SignalApprove = "approve"
	// SignalReject carries a RejectSignal to a waiting Action workflow.
	SignalReject = "reject"
	// SignalResume wakes an Action workflow parked by the kill switch.
	SignalResume = "resume"
	// SignalKillSwitchSet carries a KillSwitchChange to the kill switch.
	SignalKillSwitchSet = "kill-switch-set"
	// SignalPark registers a parked Action workflow with the kill switch.
	SignalPark = "park"
	// QueryKillSwitch returns the kill switch's KillSwitchState.
	QueryKillSwitch = "state"
	// QueryActionStage returns the stage an Action workflow is in.
	QueryActionStage = "stage"
)
