package web

import (
	"encoding/json"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/vigil-soc/vigil/notify"
)

// channel is a notification channel as GET /api/notifications/channels
// answers it, secrets masked: the API's own view type.
type channel = notify.ChannelView

// delivery is one entry of the delivery log.
type delivery struct {
	ID             string     `json:"id"`
	Event          string     `json:"event"`
	IncidentID     string     `json:"incident_id"`
	ChannelID      string     `json:"channel_id"`
	Status         string     `json:"status"`
	Attempts       int        `json:"attempts"`
	ProviderStatus int        `json:"provider_status"`
	LastError      string     `json:"last_error"`
	CreatedAt      time.Time  `json:"created_at"`
	SentAt         *time.Time `json:"sent_at"`
}

type notificationsData struct {
	Channels []channel
	Edit     *channel
	Types    []string
}

var channelTypes = []string{"chat_a", "chat_b", "oncall", "email", "webhook"}

func (d *Dashboard) notifications(c *gin.Context, v *view) (string, error) {
	v.Title, v.Nav = "Notifications", "notifications"
	data := &notificationsData{Types: channelTypes}
	v.Data = data
	if err := d.api.call(c.Request, http.MethodGet, "/api/notifications/channels", nil, &data.Channels); err != nil {
		return "", err
	}
	if id := c.Param("id"); id != "" {
		data.Edit = &channel{}
		if err := d.api.call(c.Request, http.MethodGet, "/api/notifications/channels/"+url.PathEscape(id), nil, data.Edit); err != nil {
			return "", err
		}
	}
	return "notifications", nil
}

// channelForm turns the posted form into the API's channel body; lists
// are comma-separated and config is a JSON object.
func channelForm(c *gin.Context) (map[string]any, error) {
	list := func(name string) []string {
		out := []string{}
		for _, s := range strings.Split(c.PostForm(name), ",") {
			if s = strings.TrimSpace(s); s != "" {
				out = append(out, s)
			}
		}
		return out
	}
	body := map[string]any{
		"name": c.PostForm("name"), "channel_type": c.PostForm("channel_type"), "events": list("events"),
		"severities": list("severities"), "sources": list("sources"), "days": list("days"),
		"hours": c.PostForm("hours"), "timezone": c.PostForm("timezone"), "dedup_window": c.PostForm("dedup_window"),
		"enabled": c.PostForm("enabled") == "on",
	}
	if err := setPostedConfig(c, body); err != nil {
		return nil, err
	}
	return body, nil
}

// setPostedConfig sets body["config"] to the posted config field, a JSON
// object; an empty field leaves body without one.
func setPostedConfig(c *gin.Context, body map[string]any) error {
	raw := strings.TrimSpace(c.PostForm("config"))
	if raw == "" {
		return nil
	}
	var cfg map[string]any
	if err := json.Unmarshal([]byte(raw), &cfg); err != nil {
		return &APIError{Status: http.StatusUnprocessableEntity, Code: "validation_error",
			Message: "config must be a JSON object: " + err.Error()}
	}
	body["config"] = cfg
	return nil
}

// saveForm sends a form's body to the API collection: PUT on
// collection/key when the form edits an existing item (key set), POST on
// collection when it creates one.
func (d *Dashboard) saveForm(c *gin.Context, collection, key string, body map[string]any) error {
	if key != "" {
		return d.api.call(c.Request, http.MethodPut, collection+"/"+url.PathEscape(key), body, nil)
	}
	return d.api.call(c.Request, http.MethodPost, collection, body, nil)
}

func (d *Dashboard) saveChannel(c *gin.Context, _ *view) (string, error) {
	body, err := channelForm(c)
	if err != nil {
		return "", err
	}
	return "/notifications?done=saved", d.saveForm(c, "/api/notifications/channels", c.Param("id"), body)
}

func (d *Dashboard) deleteChannel(c *gin.Context, _ *view) (string, error) {
	err := d.api.call(c.Request, http.MethodDelete, "/api/notifications/channels/"+url.PathEscape(c.Param("id")), nil, nil)
	return "/notifications?done=deleted", err
}

// testChannel sends a test message; the delivery log shows its outcome.
func (d *Dashboard) testChannel(c *gin.Context, _ *view) (string, error) {
	id := c.Param("id")
	body := map[string]string{"channel_id": id, "message": c.PostForm("message")}
	err := d.api.call(c.Request, http.MethodPost, "/api/notifications/test", body, nil)
	return "/notifications/deliveries?done=test_sent&channel_id=" + url.QueryEscape(id), err
}

type deliveryPage struct {
	Rows     []delivery
	Channels map[string]string
	Filter   url.Values
	Page     int
	Total    int
	Next     string
}

func (d *Dashboard) deliveries(c *gin.Context, v *view) (string, error) {
	v.Title, v.Nav = "Delivery log", "notifications"
	filter := url.Values{}
	for _, k := range []string{"channel_id", "event", "status", "page"} {
		if s := c.Query(k); s != "" {
			filter.Set(k, s)
		}
	}
	var answer struct {
		Data []delivery `json:"data"`
		Meta struct {
			Page    int `json:"page"`
			PerPage int `json:"per_page"`
			Total   int `json:"total"`
		} `json:"meta"`
	}
	if err := d.api.callRaw(c.Request, http.MethodGet, "/api/notifications/deliveries"+query(filter), &answer); err != nil {
		return "", err
	}
	var chans []channel
	if err := d.api.call(c.Request, http.MethodGet, "/api/notifications/channels", nil, &chans); err != nil {
		return "", err
	}
	p := &deliveryPage{Rows: answer.Data, Channels: map[string]string{}, Filter: filter, Page: answer.Meta.Page,
		Total: answer.Meta.Total}
	for _, ch := range chans {
		p.Channels[ch.ID] = ch.Name
	}
	if answer.Meta.Page*answer.Meta.PerPage < answer.Meta.Total {
		next := url.Values{}
		for k, vs := range filter {
			next[k] = vs
		}
		next.Set("page", strconv.Itoa(answer.Meta.Page+1))
		p.Next = "/notifications/deliveries" + query(next)
	}
	v.Data = p
	return "deliveries", nil
}
