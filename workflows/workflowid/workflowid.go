// Package workflowid names Vigil's workflow runs. It imports nothing of
// Vigil, so activities (which the workflows import) and the workflows
// themselves name runs the same way; the rest of Vigil names them through
// the helpers in package workflows.
package workflowid

// Action is the ID of the workflow that carries one action.
func Action(actionID string) string { return "action/" + actionID }

// Triage is the ID of one triage run of an incident.
func Triage(incidentID, triageID string) string {
	return "triage/" + incidentID + "/" + triageID
}

// KillSwitch is the singleton that holds the kill switch state.
const KillSwitch = "kill-switch"
