package api

import (
	"errors"
	"net/http"
	"slices"
	"strings"

	"github.com/gin-gonic/gin"

	"github.com/vigil-soc/vigil/notify"
	"github.com/vigil-soc/vigil/store"
)

const channelNotFound = "notification channel"

// channelError maps the notification service's errors onto the envelope.
func channelError(err error, name string) error {
	var bad notify.ValidationError
	switch {
	case errors.As(err, &bad):
		return validationError(bad)
	case errors.Is(err, store.ErrConflict):
		return newError(http.StatusConflict, CodeConflict, "a notification channel named "+name+" exists")
	case errors.Is(err, notify.ErrNoSecretKey):
		return newError(http.StatusServiceUnavailable, CodeUnavailable, err.Error())
	}
	return orNotFound(err, channelNotFound)
}

func (s *server) listChannels(c *gin.Context) (reply, error) {
	rows, err := s.store.ListChannels(c, false)
	if err != nil {
		return reply{}, err
	}
	out := make([]notify.ChannelView, 0, len(rows))
	for i := range rows {
		out = append(out, s.opts.Notify.View(&rows[i]))
	}
	return ok(out), nil
}

func (s *server) getChannel(c *gin.Context) (reply, error) {
	ch, err := s.store.GetChannel(c, c.Param("id"))
	if err != nil {
		return reply{}, orNotFound(err, channelNotFound)
	}
	return ok(s.opts.Notify.View(ch)), nil
}

func (s *server) createChannel(c *gin.Context) (reply, error) {
	var in notify.ChannelInput
	if err := decodeJSON(c, &in, false); err != nil {
		return reply{}, err
	}
	ch, err := s.opts.Notify.CreateChannel(c, in, principal(c).User.Username)
	if err != nil {
		return reply{}, channelError(err, derefOr(in.Name))
	}
	setAuditTarget(c, ch.ID)
	setAuditDetails(c, map[string]any{"name": ch.Name, "channel_type": ch.ChannelType})
	return created(s.opts.Notify.View(ch)), nil
}

func (s *server) updateChannel(c *gin.Context) (reply, error) {
	var in notify.ChannelInput
	if err := decodeJSON(c, &in, false); err != nil {
		return reply{}, err
	}
	ch, err := s.opts.Notify.UpdateChannel(c, c.Param("id"), in)
	if err != nil {
		return reply{}, channelError(err, derefOr(in.Name))
	}
	setAuditTarget(c, ch.ID)
	return ok(s.opts.Notify.View(ch)), nil
}

func (s *server) deleteChannel(c *gin.Context) (reply, error) {
	if err := s.store.DeleteChannel(c, c.Param("id")); err != nil {
		return reply{}, orNotFound(err, channelNotFound)
	}
	setAuditTarget(c, c.Param("id"))
	return noContent(), nil
}

type testRequest struct {
	ChannelID string `json:"channel_id"`
	Message   string `json:"message"`
}

// testChannel sends a test message now and answers with its outcome.
func (s *server) testChannel(c *gin.Context) (reply, error) {
	var req testRequest
	if err := decodeJSON(c, &req, false); err != nil {
		return reply{}, err
	}
	bad := map[string]string{}
	if req.ChannelID == "" {
		bad["channel_id"] = "is required"
	}
	if strings.TrimSpace(req.Message) == "" || len(req.Message) > 2000 {
		bad["message"] = "must be 1 to 2000 characters"
	}
	if len(bad) > 0 {
		return reply{}, validationError(bad)
	}
	res, err := s.opts.Notify.SendTest(c, req.ChannelID, req.Message, principal(c).User.Username)
	if err != nil {
		return reply{}, channelError(err, "")
	}
	setAuditTarget(c, req.ChannelID)
	setAuditDetails(c, map[string]any{"status": res.Status, "delivery_id": res.DeliveryID})
	return ok(res), nil
}

// deliveryView is one delivery log entry.
type deliveryView struct {
	ID             string  `json:"id"`
	Event          string  `json:"event"`
	EventID        string  `json:"event_id"`
	IncidentID     string  `json:"incident_id,omitempty"`
	ChannelID      string  `json:"channel_id"`
	Status         string  `json:"status"`
	Attempts       int     `json:"attempts"`
	ProviderStatus int     `json:"provider_status,omitempty"`
	LastError      string  `json:"last_error,omitempty"`
	CreatedAt      string  `json:"created_at"`
	UpdatedAt      string  `json:"updated_at"`
	SentAt         *string `json:"sent_at"`
}

var deliveryStatuses = []string{store.DeliveryPending, store.DeliverySent, store.DeliveryFailed, store.DeliverySuppressed}

func (s *server) listDeliveries(c *gin.Context) (reply, error) {
	bad := map[string]string{}
	p := parsePaging(c, bad)
	f := store.DeliveryFilter{ChannelID: c.Query("channel_id"), EventType: c.Query("event"), Status: c.Query("status")}
	if f.Status != "" && !slices.Contains(deliveryStatuses, f.Status) {
		bad["status"] = "must be one of " + strings.Join(deliveryStatuses, ", ")
	}
	if f.EventType != "" && !store.ValidEventType(f.EventType) && f.EventType != string(store.EventTest) {
		bad["event"] = "is not a known event type"
	}
	if len(bad) > 0 {
		return reply{}, validationError(bad)
	}
	rows, total, err := s.store.ListDeliveries(c, f, p)
	if err != nil {
		return reply{}, err
	}
	out := make([]deliveryView, 0, len(rows))
	for _, d := range rows {
		v := deliveryView{ID: d.ID, Event: d.EventType, EventID: d.EventID, IncidentID: d.IncidentID, ChannelID: d.ChannelID,
			Status: d.Status, Attempts: d.Attempts, ProviderStatus: d.ProviderStatus, LastError: d.LastError,
			CreatedAt: d.CreatedAt.Format(timeLayout), UpdatedAt: d.UpdatedAt.Format(timeLayout)}
		if d.SentAt != nil {
			t := d.SentAt.Format(timeLayout)
			v.SentAt = &t
		}
		out = append(out, v)
	}
	return paged(out, p, total), nil
}

const timeLayout = "2006-01-02T15:04:05.000000Z07:00"

func derefOr(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}
