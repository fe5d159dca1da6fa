package api

import (
	"errors"
	"net/http"
	"strings"

	"github.com/gin-gonic/gin"

	"github.com/vigil-soc/vigil/policy"
	"github.com/vigil-soc/vigil/store"
)

const policyNotFound = "policy rule"

// policyRequest is the body of both create and update; nil means "not
// given" (on update: unchanged).
type policyRequest struct {
	Name          *string `json:"name"`
	Description   *string `json:"description"`
	Condition     *string `json:"condition"`
	Action        *string `json:"action"`
	ApprovalLevel *string `json:"approval_level"`
	Priority      *int    `json:"priority"`
	Enabled       *bool   `json:"enabled"`
}

func (r *policyRequest) empty() bool {
	return r.Name == nil && r.Description == nil && r.Condition == nil && r.Action == nil &&
		r.ApprovalLevel == nil && r.Priority == nil && r.Enabled == nil
}

// applyTo merges the given fields into p. The condition is kept verbatim so
// the positions in its error messages match what the author sent.
func (r *policyRequest) applyTo(p *store.Policy) {
	if r.Name != nil {
		p.Name = strings.TrimSpace(*r.Name)
	}
	if r.Description != nil {
		p.Description = strings.TrimSpace(*r.Description)
	}
	if r.Condition != nil {
		p.Condition = *r.Condition
	}
	if r.Action != nil {
		p.Action = *r.Action
	}
	if r.ApprovalLevel != nil {
		p.ApprovalLevel = *r.ApprovalLevel
	}
	if r.Priority != nil {
		p.Priority = *r.Priority
	}
	if r.Enabled != nil {
		p.Enabled = *r.Enabled
	}
}

func (s *server) listPolicies(c *gin.Context) (reply, error) {
	rules, err := s.store.ListPolicies(c)
	if err != nil {
		return reply{}, err
	}
	if rules == nil {
		rules = []store.Policy{}
	}
	return ok(rules), nil
}

func (s *server) getPolicy(c *gin.Context) (reply, error) {
	p, err := s.store.GetPolicy(c, c.Param("id"))
	if err != nil {
		return reply{}, orNotFound(err, policyNotFound)
	}
	return ok(p), nil
}

func (s *server) createPolicy(c *gin.Context) (reply, error) {
	var req policyRequest
	if err := decodeJSON(c, &req, false); err != nil {
		return reply{}, err
	}
	p := &store.Policy{Enabled: true, CreatedBy: principal(c).User.Username}
	req.applyTo(p)
	missing := map[string]string{}
	for field, given := range map[string]bool{
		"name": req.Name != nil, "condition": req.Condition != nil, "action": req.Action != nil,
	} {
		if !given {
			missing[field] = "is required"
		}
	}
	if err := checkRule(p, missing); err != nil {
		return reply{}, err
	}
	if err := s.store.CreatePolicy(c, p); err != nil {
		return reply{}, policyConflict(err, p.Name)
	}
	setAuditTarget(c, p.ID)
	setAuditDetails(c, map[string]any{"name": p.Name, "action": p.Action})
	return created(p), nil
}

func (s *server) updatePolicy(c *gin.Context) (reply, error) {
	var req policyRequest
	if err := decodeJSON(c, &req, false); err != nil {
		return reply{}, err
	}
	if req.empty() {
		return reply{}, validationError(map[string]string{
			"body": "give at least one of name, description, condition, action, approval_level, priority, enabled"})
	}
	p, err := s.store.GetPolicy(c, c.Param("id"))
	if err != nil {
		return reply{}, orNotFound(err, policyNotFound)
	}
	req.applyTo(p)
	// The merged rule is checked as a whole: changing only the action to
	// require_approval must fail when the rule has no approval level.
	if err := checkRule(p, nil); err != nil {
		return reply{}, err
	}
	if err := s.store.UpdatePolicy(c, p); err != nil {
		return reply{}, policyConflict(orNotFound(err, policyNotFound), p.Name)
	}
	setAuditDetails(c, map[string]any{"name": p.Name, "action": p.Action})
	return ok(p), nil
}

func (s *server) deletePolicy(c *gin.Context) (reply, error) {
	// Read first so the audit trail names the rule that went away.
	p, err := s.store.GetPolicy(c, c.Param("id"))
	if err != nil {
		return reply{}, orNotFound(err, policyNotFound)
	}
	setAuditDetails(c, map[string]any{"name": p.Name, "action": p.Action})
	if err := s.store.DeletePolicy(c, p.ID); err != nil {
		return reply{}, orNotFound(err, policyNotFound)
	}
	return noContent(), nil
}

// checkRule validates p, letting missing (fields absent from a create
// request) override ValidateRule's messages. A condition that does not
// compile also gets condition_position {line, column} in the details, so a
// client can place the cursor on the error.
func checkRule(p *store.Policy, missing map[string]string) error {
	bad := policy.ValidateRule(p)
	for field, msg := range missing {
		bad[field] = msg
	}
	if len(bad) == 0 {
		return nil
	}
	apiErr := validationError(bad)
	_, conditionBad := bad["condition"]
	if _, absent := missing["condition"]; conditionBad && !absent {
		var ce *policy.CompileError
		if _, err := policy.Compile(p.Condition); errors.As(err, &ce) {
			apiErr.Details["condition_position"] = map[string]int{"line": ce.Line, "column": ce.Column}
		}
	}
	return apiErr
}

// policyConflict names the clash when a rule's name is already taken.
func policyConflict(err error, name string) error {
	if errors.Is(err, store.ErrConflict) {
		return &Error{Status: http.StatusConflict, Code: CodeConflict,
			Message: "a policy rule with this name already exists", Details: map[string]any{"name": name}}
	}
	return err
}
