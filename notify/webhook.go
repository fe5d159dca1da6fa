package notify

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// Headers of a signed webhook delivery.
const (
	SignatureHeader = "X-Svc-Signature"
	TimestampHeader = "X-Svc-Timestamp"
)

// WebhookPayload is the SPEC's default webhook body.
func WebhookPayload(m *Message) map[string]any {
	p := map[string]any{
		"event_type":  m.Event,
		"timestamp":   m.Timestamp.UTC().Format(time.RFC3339),
		"delivery_id": m.DeliveryID,
		"title":       m.Title,
		"data":        m.Data,
	}
	if m.IncidentID != "" {
		p["incident"] = map[string]any{
			"id": m.IncidentID, "title": m.Data["title"], "severity": m.Severity, "source": m.Source,
			"description": m.Data["description"], "created_at": m.Data["created_at"], "status": m.IncidentStatus,
			"number": m.IncidentNumber, "url": m.Link,
		}
	}
	if m.ApprovalLink != "" {
		p["approval_url"] = m.ApprovalLink
	}
	return p
}

// Sign returns the signature header value over "<timestamp>.<payload>".
func Sign(secret, timestamp string, payload []byte) string {
	mac := hmac.New(sha256.New, []byte(secret))
	mac.Write([]byte(timestamp + "."))
	mac.Write(payload)
	return "sha256=" + hex.EncodeToString(mac.Sum(nil))
}

func sendWebhook(ctx context.Context, client *http.Client, ch *Channel, m *Message, now time.Time) Result {
	body := mustJSON(WebhookPayload(m))
	headers := map[string]string{}
	if hs, ok := ch.Config.V["headers"].(map[string]any); ok {
		for k, v := range hs {
			if s, ok := v.(string); ok {
				headers[k] = s
			}
		}
	}
	headers[DeliveryHeader] = m.DeliveryID
	if secret := ch.Str("secret"); secret != "" {
		ts := strconv.FormatInt(now.Unix(), 10)
		headers[TimestampHeader] = ts
		headers[SignatureHeader] = Sign(secret, ts, body)
	}
	method := strings.ToUpper(ch.Str("method"))
	if method == "" {
		method = http.MethodPost
	}
	return postJSON(ctx, client, method, ch.Str("url"), body, headers)
}
