package api

import (
	"context"
	"maps"
	"net/http"
	"strings"

	"github.com/gin-gonic/gin"

	"github.com/vigil-soc/vigil/internal/reqid"
	"github.com/vigil-soc/vigil/store"
)

const (
	auditTargetKey  = "vigil.audit_target"
	auditDetailsKey = "vigil.audit_details"
)

// setAuditTarget names the resource a state-changing request acted on when
// it is not the :id path parameter (for example a newly created one).
func setAuditTarget(c *gin.Context, id string) { c.Set(auditTargetKey, id) }

// setAuditDetails attaches non-secret context to the request's audit event.
func setAuditDetails(c *gin.Context, details map[string]any) { c.Set(auditDetailsKey, details) }

// auditRequest records every state-changing request once it has been
// answered, whatever the outcome: success, failure or denial.
func (s *server) auditRequest(action string) gin.HandlerFunc {
	return func(c *gin.Context) {
		c.Next()
		target := c.Param("id")
		if v, ok := c.Get(auditTargetKey); ok {
			target, _ = v.(string)
		}
		v, _ := c.Get(auditDetailsKey)
		details, _ := v.(map[string]any)
		s.recordAudit(c, action, target, c.Writer.Status(), details)
	}
}

// recordAudit appends one event for the calling principal. A failure to
// write it is logged loudly; the request it describes has already happened.
func (s *server) recordAudit(c *gin.Context, action, target string, status int, details map[string]any) {
	outcome := store.OutcomeSuccess
	switch {
	case status == http.StatusUnauthorized || status == http.StatusForbidden || status == http.StatusTooManyRequests:
		outcome = store.OutcomeDenied
	case status >= 400:
		outcome = store.OutcomeFailure
	}
	_, method := principalID(c)
	if id := reqid.From(c.Request.Context()); id != "" {
		details = maps.Clone(details)
		if details == nil {
			details = map[string]any{}
		}
		details["request_id"] = id
	}
	e := &store.AuditEvent{
		AuthMethod: method, Action: action, TargetType: strings.SplitN(action, ".", 2)[0],
		TargetID: target, Outcome: outcome, Status: status, ClientIP: c.ClientIP(),
		Details: store.NewJSON(details),
	}
	if p := principal(c); p != nil {
		e.ActorID, e.Actor = p.User.ID, p.User.Username
	} else if login, ok := details["login"].(string); ok {
		e.Actor = login
	}
	if err := s.store.RecordAudit(context.WithoutCancel(c), e); err != nil {
		s.log.Error("audit event not recorded", "action", action, "target", target, "err", err)
	}
}

func (s *server) listAudit(c *gin.Context) (reply, error) {
	bad := map[string]string{}
	f := store.AuditFilter{
		Actor: c.Query("actor"), Action: c.Query("action"), TargetID: c.Query("target_id"),
		Since: parseTimeParam(c, bad, "since"), Until: parseTimeParam(c, bad, "until"),
	}
	page := parsePaging(c, bad)
	f.Page, f.PerPage = page.Page, page.PerPage
	if v, ok := c.GetQuery("outcome"); ok {
		if v != store.OutcomeSuccess && v != store.OutcomeFailure && v != store.OutcomeDenied {
			bad["outcome"] = "must be one of success, failure, denied"
		}
		f.Outcome = v
	}
	if len(bad) > 0 {
		return reply{}, validationError(bad)
	}
	events, total, err := s.store.ListAudit(c, f)
	if err != nil {
		return reply{}, err
	}
	return paged(events, page, total), nil
}
