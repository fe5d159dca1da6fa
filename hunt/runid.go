package hunt

import "github.com/google/uuid"

// RunIDOf is the run ID of a run whose workflow ID its starter did not
// choose (a scheduled run): derived from the workflow ID, so every attempt
// of the run, and the API that triggered it, name the same run.
func RunIDOf(workflowID string) string {
	return uuid.NewSHA1(uuid.NameSpaceURL, []byte(workflowID)).String()
}
