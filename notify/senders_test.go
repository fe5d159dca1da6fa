package notify_test

import (
	"context"
	"github.com/vigil-soc/vigil/outbound"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/vigil-soc/vigil/notify"
	"github.com/vigil-soc/vigil/store"
)

// local allows the test peers on 127.0.0.1 over plain HTTP.
var local = func(context.Context) outbound.Policy {
	return outbound.Policy{AllowHTTP: true, AllowHosts: []string{"127.0.0.1"}}
}

func channel(typ string, config map[string]any, secrets map[string]string) *notify.Channel {
	return &notify.Channel{NotificationChannel: &store.NotificationChannel{ID: "c1", ChannelType: typ,
		Config: store.NewJSON(config)}, Secrets: secrets}
}

func event(typ store.EventType, severity, status string, extra map[string]any) (*store.NotificationEvent, *store.NotificationDelivery) {
	data := map[string]any{"incident_number": "INC-2026-0042", "title": "Phishing wave", "status": status,
		"description": "Many users got the same lure"}
	for k, v := range extra {
		data[k] = v
	}
	ev := &store.NotificationEvent{ID: "e1", EventType: string(typ), IncidentID: "11111111-2222-3333-4444-555555555555",
		Severity: severity, Source: "email_gateway", Data: store.NewJSON(data), CreatedAt: time.Now().UTC()}
	return ev, &store.NotificationDelivery{ID: "d-" + string(typ) + "-" + severity, EventID: ev.ID}
}

func TestSlackContract(t *testing.T) {
	p := newPeer(t, slackCheck)
	svc := &notify.Service{Policy: local, Links: notify.Links{PublicURL: "https://vigil.example"}}
	ch := channel(notify.TypeChatA, map[string]any{}, map[string]string{"webhook_url": p.URL + "/services/T0/B0/x",
		"signing_secret": "s"})
	for sev, color := range notify.SeverityColors {
		ev, d := event(store.EventActionPendingApproval, sev, "open", map[string]any{"action_id": "a1",
			"action_type": "isolate_host", "approval_level": "manager"})
		if res := svc.Send(context.Background(), ch, notify.NewMessage(ev, d, svc.Links)); res.Err != nil {
			t.Fatalf("%s: %v", sev, res.Err)
		}
		bodies, headers, _, problems := p.snapshot()
		if len(problems) > 0 {
			t.Fatalf("slack peer refused: %v", problems)
		}
		last := bodies[len(bodies)-1]
		if got := str(last, "attachments.0.color"); got != color {
			t.Errorf("%s: colour %s, want %s", sev, got, color)
		}
		raw := headers[len(headers)-1].Get("X-Raw-Body")
		for _, want := range []string{`"action_id":"approve"`, `"action_id":"reject"`, "https://vigil.example/approvals",
			"https://vigil.example/incidents/"} {
			if !strings.Contains(raw, want) {
				t.Errorf("%s: payload lacks %s", sev, want)
			}
		}
		if headers[len(headers)-1].Get("X-Svc-Delivery") != d.ID {
			t.Errorf("delivery id header %q, want %q", headers[len(headers)-1].Get("X-Svc-Delivery"), d.ID)
		}
	}
	wantColors := map[string]string{"critical": "#D32F2F", "high": "#F57C00", "medium": "#FBC02D", "low": "#9E9E9E"}
	for k, v := range wantColors {
		if notify.SeverityColors[k] != v {
			t.Errorf("colour of %s is %s", k, notify.SeverityColors[k])
		}
	}
}

func TestTeamsContract(t *testing.T) {
	p := newPeer(t, teamsCheck)
	p.status = func(int) (int, http.Header) { return http.StatusAccepted, nil }
	svc := &notify.Service{Policy: local}
	ch := channel(notify.TypeChatB, map[string]any{}, map[string]string{"webhook_url": p.URL + "/workflows/x"})
	ev, d := event(store.EventIncidentCreated, "high", "open", nil)
	res := svc.Send(context.Background(), ch, notify.NewMessage(ev, d, svc.Links))
	if res.Err != nil || res.ProviderStatus != http.StatusAccepted {
		t.Fatalf("send: %+v", res)
	}
	if _, _, _, problems := p.snapshot(); len(problems) > 0 {
		t.Fatalf("teams peer refused: %v", problems)
	}
}

func TestPagerDutyContract(t *testing.T) {
	p := newPeer(t, pagerDutyCheck)
	p.status = func(int) (int, http.Header) { return http.StatusAccepted, nil }
	svc := &notify.Service{Policy: local}
	key := strings.Repeat("a", 32)
	ch := channel(notify.TypeOncall, map[string]any{"url": p.URL + "/v2/enqueue"}, map[string]string{"routing_key": key})
	cases := []struct {
		event            store.EventType
		severity, status string
		action, pdSev    string
	}{
		{store.EventIncidentCreated, "critical", "open", "trigger", "critical"},
		{store.EventIncidentCreated, "high", "open", "trigger", "error"},
		{store.EventIncidentCreated, "medium", "open", "trigger", "warning"},
		{store.EventIncidentCreated, "low", "open", "trigger", "info"},
		{store.EventIncidentResolved, "low", "resolved", "resolve", ""},
	}
	for i, tc := range cases {
		ev, d := event(tc.event, tc.severity, tc.status, nil)
		if res := svc.Send(context.Background(), ch, notify.NewMessage(ev, d, svc.Links)); res.Err != nil {
			t.Fatalf("case %d: %v", i, res.Err)
		}
		bodies, _, _, problems := p.snapshot()
		if len(problems) > 0 {
			t.Fatalf("pagerduty peer refused: %v", problems)
		}
		b := bodies[i]
		if str(b, "event_action") != tc.action || str(b, "payload.severity") != tc.pdSev {
			t.Errorf("case %d: action %s severity %s, want %s %s", i, str(b, "event_action"), str(b, "payload.severity"), tc.action, tc.pdSev)
		}
		if str(b, "dedup_key") != "vigil-"+ev.IncidentID {
			t.Errorf("case %d: dedup_key %s is not per incident", i, str(b, "dedup_key"))
		}
	}
}

func TestWebhookSignature(t *testing.T) {
	p := newPeer(t, func(h http.Header, b map[string]any) string {
		if str(b, "event_type") == "" || str(b, "incident.id") == "" || str(b, "timestamp") == "" {
			return "missing SPEC fields"
		}
		return ""
	})
	svc := &notify.Service{Policy: local}
	ch := channel(notify.TypeWebhook, map[string]any{"url": p.URL + "/hook", "headers": map[string]any{"X-Team": "soc"}},
		map[string]string{"secret": "whsec"})
	ev, d := event(store.EventIncidentCreated, "high", "open", nil)
	if res := svc.Send(context.Background(), ch, notify.NewMessage(ev, d, svc.Links)); res.Err != nil {
		t.Fatal(res.Err)
	}
	_, headers, _, problems := p.snapshot()
	if len(problems) > 0 {
		t.Fatal(problems)
	}
	h := headers[0]
	ts := h.Get("X-Svc-Timestamp")
	if want := notify.Sign("whsec", ts, []byte(h.Get("X-Raw-Body"))); h.Get("X-Svc-Signature") != want || ts == "" {
		t.Errorf("signature %q over timestamp %q, want %q", h.Get("X-Svc-Signature"), ts, want)
	}
	if h.Get("X-Team") != "soc" || h.Get("X-Svc-Delivery") != d.ID {
		t.Errorf("headers %v", h)
	}
}

func TestOutboundPolicy(t *testing.T) {
	def := outbound.Policy{}
	for _, u := range []string{"http://hooks.example.com/x", "https://127.0.0.1/x", "https://169.254.169.254/latest",
		"https://[::1]/x", "https://10.0.0.8/x", "ftp://example.com/x"} {
		if def.CheckURL(u) == nil {
			t.Errorf("%s was allowed by default", u)
		}
	}
	if err := def.CheckURL("https://hooks.example.com/x"); err != nil {
		t.Errorf("public https refused: %v", err)
	}
	allow := outbound.Policy{AllowHosts: []string{"10.0.0.8", "169.254.169.254"}}
	if err := allow.CheckURL("https://10.0.0.8/x"); err != nil {
		t.Errorf("listed host refused: %v", err)
	}
	if err := allow.CheckURL("https://169.254.169.254/x"); err != nil {
		t.Errorf("listed metadata address refused: %v", err)
	}
	// A name that resolves to loopback is refused when connecting.
	svc := &notify.Service{}
	ch := channel(notify.TypeWebhook, map[string]any{"url": "https://localhost:1/x"}, nil)
	ev, d := event(store.EventIncidentCreated, "high", "open", nil)
	res := svc.Send(context.Background(), ch, notify.NewMessage(ev, d, svc.Links))
	if res.Err == nil || !strings.Contains(res.Err.Error(), "internal") {
		t.Errorf("localhost was reached: %+v", res)
	}
}

func TestProviderRates(t *testing.T) {
	cases := []struct {
		typ    string
		config map[string]any
		want   time.Duration
	}{
		{notify.TypeChatA, nil, time.Second},
		{notify.TypeChatB, nil, 250 * time.Millisecond},
		{notify.TypeOncall, nil, 500 * time.Millisecond},
		{notify.TypeWebhook, nil, 0},
		{notify.TypeChatA, map[string]any{"rate_per_minute": float64(300)}, 200 * time.Millisecond},
	}
	for _, tc := range cases {
		if got := channel(tc.typ, tc.config, nil).Interval(); got != tc.want {
			t.Errorf("%s %v: interval %s, want %s", tc.typ, tc.config, got, tc.want)
		}
	}
}
