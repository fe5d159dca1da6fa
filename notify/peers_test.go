package notify_test

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// peer is a local stand-in for a vendor endpoint: it checks each request
// against the vendor's contract (check returns the problem, or ""), and
// records what arrived and when.
type peer struct {
	*httptest.Server
	mu       sync.Mutex
	bodies   []map[string]any
	headers  []http.Header
	arrivals []time.Time
	problems []string
	// status answers each request; nil answers 200.
	status func(n int) (int, http.Header)
}

func newPeer(t *testing.T, check func(h http.Header, body map[string]any) string) *peer {
	p := &peer{}
	p.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		raw, _ := io.ReadAll(r.Body)
		var body map[string]any
		problem := ""
		if r.Method != http.MethodPost {
			problem = "method " + r.Method
		} else if !strings.HasPrefix(r.Header.Get("Content-Type"), "application/json") {
			problem = "content type " + r.Header.Get("Content-Type")
		} else if err := json.Unmarshal(raw, &body); err != nil {
			problem = "body is not JSON: " + err.Error()
		} else {
			problem = check(r.Header, body)
		}
		p.mu.Lock()
		n := len(p.arrivals)
		p.arrivals = append(p.arrivals, time.Now())
		p.bodies = append(p.bodies, body)
		h := r.Header.Clone()
		h.Set("X-Raw-Body", string(raw))
		p.headers = append(p.headers, h)
		if problem != "" {
			p.problems = append(p.problems, problem)
		}
		p.mu.Unlock()
		if problem != "" {
			http.Error(w, "invalid_payload: "+problem, http.StatusBadRequest)
			return
		}
		code, extra := http.StatusOK, http.Header{}
		if p.status != nil {
			code, extra = p.status(n)
		}
		for k, v := range extra {
			w.Header()[k] = v
		}
		w.WriteHeader(code)
		_, _ = io.WriteString(w, "ok")
	}))
	t.Cleanup(p.Close)
	return p
}

func (p *peer) count() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return len(p.arrivals)
}

func (p *peer) snapshot() ([]map[string]any, []http.Header, []time.Time, []string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return slices.Clone(p.bodies), slices.Clone(p.headers), slices.Clone(p.arrivals), slices.Clone(p.problems)
}

// path reads a nested value such as "attachments.0.color".
func path(v any, p string) any {
	for _, part := range strings.Split(p, ".") {
		switch x := v.(type) {
		case map[string]any:
			v = x[part]
		case []any:
			var i int
			if _, err := fmt.Sscan(part, &i); err != nil || i >= len(x) {
				return nil
			}
			v = x[i]
		default:
			return nil
		}
	}
	return v
}

func str(v any, p string) string { s, _ := path(v, p).(string); return s }

// slackCheck is what Slack's incoming webhooks require: text or blocks,
// every block typed, header text plain_text of at most 150 characters,
// section text at most 3000, attachment colours as hex.
func slackCheck(h http.Header, b map[string]any) string {
	if str(b, "text") == "" {
		return "no top-level text (notifications fall back to it)"
	}
	atts, _ := b["attachments"].([]any)
	if len(atts) != 1 {
		return "want one attachment"
	}
	color := str(atts[0], "color")
	if len(color) != 7 || color[0] != '#' {
		return "attachment color must be a hex colour"
	}
	blocks, _ := path(atts[0], "blocks").([]any)
	if len(blocks) == 0 || len(blocks) > 50 {
		return "attachment needs 1 to 50 blocks"
	}
	for _, bl := range blocks {
		switch str(bl, "type") {
		case "header":
			if str(bl, "text.type") != "plain_text" || len([]rune(str(bl, "text.text"))) > 150 {
				return "header text must be plain_text up to 150 characters"
			}
		case "section":
			if str(bl, "text.text") == "" && path(bl, "fields") == nil {
				return "section needs text or fields"
			}
		case "actions":
			els, _ := path(bl, "elements").([]any)
			for _, e := range els {
				if str(e, "type") != "button" || str(e, "text.type") != "plain_text" || str(e, "action_id") == "" {
					return "button needs plain_text and action_id"
				}
			}
		case "context":
		default:
			return "unknown block type " + str(bl, "type")
		}
	}
	if h.Get("X-Svc-Delivery") == "" {
		return "no delivery id header"
	}
	return ""
}

// teamsCheck is the envelope a Teams Workflows webhook takes.
func teamsCheck(_ http.Header, b map[string]any) string {
	switch {
	case str(b, "type") != "message":
		return "type must be message"
	case str(b, "attachments.0.contentType") != "application/vnd.microsoft.card.adaptive":
		return "attachment contentType must be the adaptive card type"
	case str(b, "attachments.0.content.type") != "AdaptiveCard":
		return "content.type must be AdaptiveCard"
	case str(b, "attachments.0.content.$schema") != "http://adaptivecards.io/schemas/adaptive-card.json":
		return "content needs the adaptive card $schema"
	case str(b, "attachments.0.content.version") == "":
		return "content needs a version"
	case path(b, "attachments.0.content.body.0.type") != "TextBlock":
		return "body must start with a TextBlock"
	}
	return ""
}

// pagerDutyCheck is what the Events API v2 validates.
func pagerDutyCheck(_ http.Header, b map[string]any) string {
	if len(str(b, "routing_key")) != 32 {
		return "routing_key must be 32 characters"
	}
	switch str(b, "event_action") {
	case "trigger":
		if str(b, "payload.summary") == "" || len(str(b, "payload.summary")) > 1024 || str(b, "payload.source") == "" {
			return "trigger needs payload.summary (≤1024) and payload.source"
		}
		if !slices.Contains([]string{"critical", "error", "warning", "info"}, str(b, "payload.severity")) {
			return "payload.severity must be critical, error, warning or info"
		}
		if _, err := time.Parse(time.RFC3339, str(b, "payload.timestamp")); err != nil {
			return "payload.timestamp must be ISO 8601"
		}
	case "resolve", "acknowledge":
		if str(b, "dedup_key") == "" {
			return "resolve needs dedup_key"
		}
	default:
		return "event_action must be trigger, acknowledge or resolve"
	}
	if len(str(b, "dedup_key")) > 255 {
		return "dedup_key longer than 255"
	}
	return ""
}
