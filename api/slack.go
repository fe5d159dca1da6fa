package api

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/vigil-soc/vigil/notify"
	"github.com/vigil-soc/vigil/store"
)

// CodeUnknownUser refuses a chat user who maps to no Vigil user.
const CodeUnknownUser = "unknown_user"

// slackInteraction takes an Approve or Reject button press from Slack. It
// verifies Slack's v0 signature and timestamp, maps the Slack user to a
// Vigil user by e-mail, and then decides exactly as the approve and reject
// routes do (level, four-eyes, already decided) as that user.
func (s *server) slackInteraction(c *gin.Context) (reply, error) {
	body, err := io.ReadAll(c.Request.Body)
	if err != nil {
		return reply{}, err
	}
	ch, err := s.opts.Notify.VerifySlack(c, c.GetHeader("X-Slack-Request-Timestamp"), c.GetHeader("X-Slack-Signature"), body, time.Now())
	switch {
	case errors.Is(err, notify.ErrSlackStale):
		return reply{}, newError(http.StatusUnauthorized, CodeTimestampExpired, err.Error())
	case errors.Is(err, notify.ErrSlackSignature):
		return reply{}, newError(http.StatusUnauthorized, CodeInvalidSignature, err.Error())
	case err != nil:
		return reply{}, err
	}
	press, err := notify.ParseSlackInteraction(body)
	if err != nil {
		return reply{}, newError(http.StatusBadRequest, CodeBadRequest, err.Error())
	}
	email, err := s.opts.Notify.SlackUserEmail(c, ch, press.UserID)
	if err != nil {
		return reply{}, newError(http.StatusForbidden, CodeUnknownUser, "the Slack user's e-mail could not be read: "+err.Error())
	}
	u, err := s.store.UserByEmail(c, email)
	if err != nil {
		return reply{}, newError(http.StatusForbidden, CodeUnknownUser, "no enabled Vigil user has the Slack user's e-mail address")
	}
	c.Set(principalKey, &store.Principal{User: *u})
	c.Params = append(c.Params, gin.Param{Key: "id", Value: press.ActionID})
	decide, audit, req := s.approveAction, "action.approve", []byte(`{"comment":"approved in Slack"}`)
	if press.Decision == "reject" {
		decide, audit, req = s.rejectAction, "action.reject", []byte(`{"reason":"rejected in Slack"}`)
	}
	c.Request.Body = io.NopCloser(bytes.NewReader(req))
	out, err := decide(c)
	status, text := out.status, "Action "+press.ActionID+": "
	var apiErr *Error
	if errors.As(err, &apiErr) {
		status, text = apiErr.Status, text+"not "+press.Decision+"d by "+u.Username+": "+apiErr.Message
	} else if err == nil {
		b, _ := json.Marshal(out.body)
		var res struct {
			Status string `json:"status"`
		}
		_ = json.Unmarshal(b, &res)
		text += res.Status + " (" + press.Decision + "d by " + u.Username + " in Slack)"
	}
	s.recordAudit(c, audit, press.ActionID, max(status, http.StatusOK), map[string]any{"via": "slack", "slack_user": press.UserID})
	if press.ResponseURL != "" && (err == nil || apiErr != nil) {
		if uerr := s.opts.Notify.UpdateSlackMessage(c, press.ResponseURL, text); uerr != nil {
			s.log.Warn("slack message not updated", "action_id", press.ActionID, "err", uerr)
		}
	}
	return out, err
}
