package notify

import (
	"context"
	"net/http"
)

// SeverityColors are the SPEC's severity colours, as Slack attachment bars.
var SeverityColors = map[string]string{
	"critical": "#D32F2F", "high": "#F57C00", "medium": "#FBC02D", "low": "#9E9E9E",
}

func severityColor(sev string) string {
	if c, ok := SeverityColors[sev]; ok {
		return c
	}
	return SeverityColors["low"]
}

func plain(text string) map[string]any {
	return map[string]any{"type": "plain_text", "text": text, "emoji": false}
}

func clip(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}

// SlackPayload renders a message for a Slack incoming webhook: Block Kit
// blocks inside a legacy attachment, whose colour bar carries the
// severity (blocks have no colour), and a top-level text for
// notifications. An approval request carries Approve and Reject buttons
// when interactive is set.
func SlackPayload(m *Message, interactive bool) map[string]any {
	blocks := []any{
		map[string]any{"type": "header", "text": plain(clip(m.Title, 150))},
	}
	if m.Text != "" {
		blocks = append(blocks, map[string]any{"type": "section",
			"text": map[string]any{"type": "mrkdwn", "text": clip(m.Text, 3000)}})
	}
	var fields []any
	if m.Severity != "" {
		fields = append(fields, map[string]any{"type": "mrkdwn", "text": "*Severity*\n" + m.Severity})
	}
	if m.IncidentStatus != "" {
		fields = append(fields, map[string]any{"type": "mrkdwn", "text": "*Status*\n" + m.IncidentStatus})
	}
	if len(fields) > 0 {
		blocks = append(blocks, map[string]any{"type": "section", "fields": fields})
	}
	var buttons []any
	if m.Link != "" && isAbsolute(m.Link) {
		buttons = append(buttons, map[string]any{"type": "button", "text": plain("Open incident"),
			"url": m.Link, "action_id": "open_incident"})
	}
	if actionID, _ := m.Data["action_id"].(string); interactive && m.Event == "action_pending_approval" && actionID != "" {
		buttons = append(buttons,
			map[string]any{"type": "button", "text": plain("Approve"), "style": "primary",
				"action_id": "approve", "value": actionID},
			map[string]any{"type": "button", "text": plain("Reject"), "style": "danger",
				"action_id": "reject", "value": actionID})
	}
	if len(buttons) > 0 {
		blocks = append(blocks, map[string]any{"type": "actions", "block_id": "vigil_" + m.DeliveryID, "elements": buttons})
	}
	blocks = append(blocks, map[string]any{"type": "context", "elements": []any{
		map[string]any{"type": "mrkdwn", "text": "Vigil · " + m.Event + " · delivery " + m.DeliveryID}}})
	return map[string]any{
		"text":        m.Title,
		"attachments": []any{map[string]any{"color": severityColor(m.Severity), "blocks": blocks}},
	}
}

func isAbsolute(u string) bool {
	return len(u) > 8 && (u[:7] == "http://" || u[:8] == "https://")
}

// TeamsPayload renders a message in the envelope a Teams Workflows
// webhook takes: a message whose attachment is an Adaptive Card.
func TeamsPayload(m *Message) map[string]any {
	body := []any{
		map[string]any{"type": "TextBlock", "text": m.Title, "weight": "Bolder", "size": "Medium", "wrap": true,
			"color": teamsColor(m.Severity)},
	}
	if m.Text != "" {
		body = append(body, map[string]any{"type": "TextBlock", "text": m.Text, "wrap": true})
	}
	facts := []any{map[string]any{"title": "Event", "value": m.Event}}
	if m.Severity != "" {
		facts = append(facts, map[string]any{"title": "Severity", "value": m.Severity})
	}
	if m.IncidentStatus != "" {
		facts = append(facts, map[string]any{"title": "Status", "value": m.IncidentStatus})
	}
	body = append(body, map[string]any{"type": "FactSet", "facts": facts})
	card := map[string]any{
		"$schema": "http://adaptivecards.io/schemas/adaptive-card.json",
		"type":    "AdaptiveCard",
		"version": "1.4",
		"body":    body,
	}
	link := m.ApprovalLink
	if link == "" {
		link = m.Link
	}
	if isAbsolute(link) {
		card["actions"] = []any{map[string]any{"type": "Action.OpenUrl", "title": "Open in Vigil", "url": link}}
	}
	return map[string]any{
		"type": "message",
		"attachments": []any{map[string]any{
			"contentType": "application/vnd.microsoft.card.adaptive",
			"contentUrl":  nil,
			"content":     card,
		}},
	}
}

func teamsColor(sev string) string {
	switch sev {
	case "critical", "high":
		return "Attention"
	case "medium":
		return "Warning"
	}
	return "Default"
}

func sendSlack(ctx context.Context, client *http.Client, ch *Channel, m *Message) Result {
	interactive := ch.Str("signing_secret") != ""
	return postJSON(ctx, client, http.MethodPost, ch.Str("webhook_url"), mustJSON(SlackPayload(m, interactive)),
		map[string]string{DeliveryHeader: m.DeliveryID})
}

func sendTeams(ctx context.Context, client *http.Client, ch *Channel, m *Message) Result {
	return postJSON(ctx, client, http.MethodPost, ch.Str("webhook_url"), mustJSON(TeamsPayload(m)),
		map[string]string{DeliveryHeader: m.DeliveryID})
}
