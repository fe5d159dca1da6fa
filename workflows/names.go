// Package workflows holds Vigil's Temporal workflows (deterministic
// orchestration only) and the names the API shares with them: the task
// queue, workflow ID helpers and search attribute keys.
package workflows

import "go.temporal.io/sdk/temporal"

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
)

// SearchAttributeNames lists the custom search attributes Vigil uses, for
// registering them on a namespace.
var SearchAttributeNames = []string{"IncidentNumber", "Severity", "IncidentType", "ActionType", "PlaybookName"}

// TriageWorkflowID is the ID of one triage run of an incident.
func TriageWorkflowID(incidentID, triageID string) string {
	return "triage/" + incidentID + "/" + triageID
}
