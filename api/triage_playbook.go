package api

import (
	"errors"
	"fmt"
	"net/http"

	"github.com/gin-gonic/gin"

	"github.com/vigil-soc/vigil/store"
)

// playbookTriage answers a triage run through a playbook: the SPEC's
// triage fields, with the playbook run they came from.
type playbookTriage struct {
	TriageID    string         `json:"triage_id"`
	ExecutionID string         `json:"execution_id"`
	IncidentID  string         `json:"incident_id"`
	Playbook    string         `json:"playbook"`
	PlaybookID  string         `json:"playbook_id"`
	Status      string         `json:"status"`
	Verdict     map[string]any `json:"verdict,omitempty"`
	DurationMS  int64          `json:"duration_ms"`
	StepsDone   int            `json:"steps_completed"`
	StepsTotal  int            `json:"steps_total"`
}

// triageThroughPlaybook runs the named playbook (by name or id) on the
// incident instead of the built-in triage. A playbook's steps request
// actions, so the caller's key must also allow actions:execute.
func (s *server) triageThroughPlaybook(c *gin.Context, inc *store.Incident, name string) (reply, error) {
	p, err := s.store.PlaybookByName(c, name)
	if errors.Is(err, store.ErrNotFound) {
		p, _, err = s.store.GetPlaybook(c, name)
	}
	if errors.Is(err, store.ErrNotFound) {
		return reply{}, validationError(map[string]string{"playbook": fmt.Sprintf("unknown playbook %q", name)})
	}
	if err != nil {
		return reply{}, err
	}
	if !scopeAllows(principal(c).Scopes(), ScopeActionsExecute) {
		return reply{}, &Error{Status: http.StatusForbidden, Code: CodeInsufficientScope,
			Message: "triage through a playbook runs actions; this API key lacks the scope " + ScopeActionsExecute,
			Details: map[string]any{"required_scope": ScopeActionsExecute, "key_scopes": principal(c).Scopes()}}
	}
	done, err := s.startRun(c, p, inc, nil)
	if err != nil {
		return reply{}, err
	}
	setAuditDetails(c, map[string]any{"playbook": p.Name, "execution_id": done.ID})
	v := executionViewOf(done, false)
	out := playbookTriage{TriageID: done.ID, ExecutionID: done.ID, IncidentID: inc.ID, Playbook: p.Name, PlaybookID: p.ID,
		Status: done.Status, Verdict: verdictOf(inc.ID, s, c), DurationMS: v.DurationMS,
		StepsDone: v.StepsCompleted, StepsTotal: v.StepsTotal}
	if done.Status == store.ExecutionRunning {
		return accepted(out), nil
	}
	return ok(out), nil
}
