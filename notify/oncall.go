package notify

import (
	"context"
	"net/http"
	"slices"
	"time"
)

// PagerDutyEventsURL is the Events API v2 endpoint; config url overrides it.
const PagerDutyEventsURL = "https://events.pagerduty.com/v2/enqueue"

// PagerDutySeverity maps Vigil's severities onto the Events API's.
var PagerDutySeverity = map[string]string{"critical": "critical", "high": "error", "medium": "warning", "low": "info"}

// defaultResolveStatuses are the incident statuses that resolve the alert
// when config resolve_statuses is not set.
var defaultResolveStatuses = []string{"resolved", "closed", "false_positive"}

// PagerDutyEvent renders a message as an Events API v2 event: one alert per
// incident (dedup_key), resolved when the incident reaches one of the
// resolve statuses.
func PagerDutyEvent(ch *Channel, m *Message) map[string]any {
	routingKey := ch.Str("routing_key")
	if routingKey == "" {
		routingKey = ch.Str("integration_key")
	}
	autoResolve, set := ch.Config.V["auto_resolve"].(bool)
	key := "vigil-" + m.IncidentID
	if m.IncidentID == "" {
		key = "vigil-" + m.DeliveryID
	}
	resolveOn := ch.List("resolve_statuses")
	if len(resolveOn) == 0 {
		resolveOn = defaultResolveStatuses
	}
	if (autoResolve || !set) && m.IncidentID != "" && slices.Contains(resolveOn, m.IncidentStatus) &&
		(m.Event == "incident_resolved" || m.Event == "incident_updated") {
		return map[string]any{"routing_key": routingKey, "event_action": "resolve", "dedup_key": key}
	}
	sev, ok := PagerDutySeverity[m.Severity]
	if !ok {
		sev = "info"
	}
	details := map[string]any{"event": m.Event, "delivery_id": m.DeliveryID}
	for k, v := range m.Data {
		details[k] = v
	}
	ev := map[string]any{
		"routing_key":  routingKey,
		"event_action": "trigger",
		"dedup_key":    key,
		"payload": map[string]any{
			"summary":        clip(m.Title, 1024),
			"source":         "vigil",
			"severity":       sev,
			"timestamp":      m.Timestamp.UTC().Format(time.RFC3339),
			"component":      m.Source,
			"class":          m.Event,
			"custom_details": details,
		},
		"client": "Vigil",
	}
	if isAbsolute(m.Link) {
		ev["client_url"] = m.Link
		ev["links"] = []any{map[string]any{"href": m.Link, "text": "Incident in Vigil"}}
	}
	return ev
}

func sendPagerDuty(ctx context.Context, client *http.Client, ch *Channel, m *Message) Result {
	url := ch.Str("url")
	if url == "" {
		url = PagerDutyEventsURL
	}
	return postJSON(ctx, client, http.MethodPost, url, mustJSON(PagerDutyEvent(ch, m)),
		map[string]string{DeliveryHeader: m.DeliveryID})
}
