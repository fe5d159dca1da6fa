package servicenow_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/vigil-soc/vigil/connectors"
	"github.com/vigil-soc/vigil/connectors/servicenow"
	"github.com/vigil-soc/vigil/connectors/vendorhttp"
	"github.com/vigil-soc/vigil/connectors/vendortest"
)

func connect(t *testing.T, p *peer, settings, secrets map[string]string) *servicenow.Connector {
	t.Helper()
	s := map[string]string{"base_url": p.URL}
	for k, v := range settings {
		s[k] = v
	}
	return vendortest.Build[*servicenow.Connector](t, connectors.Config{ID: "sn", Type: servicenow.Type, Settings: s, Secrets: secrets})
}

func basic(t *testing.T, p *peer, user, pass string) *servicenow.Connector {
	return connect(t, p, map[string]string{"username": user}, map[string]string{"password": pass})
}

func TestCreateTicketMapsPriorityToImpactAndUrgency(t *testing.T) {
	cases := []struct{ priority, impact, urgency, snPriority string }{
		{"critical", "1", "1", "1"}, {"high", "2", "1", "2"}, {"medium", "2", "2", "3"}, {"low", "3", "2", "4"},
	}
	p := newPeer(t)
	c := basic(t, p, peerUser, peerPassword)
	for i, tc := range cases {
		t.Run(tc.priority, func(t *testing.T) {
			res, err := c.CreateTicket(context.Background(), "act-"+tc.priority,
				connectors.Ticket{Title: "Phish\nreported", Description: "details", Priority: tc.priority})
			if err != nil {
				t.Fatal(err)
			}
			row := p.rows[i]
			if row["impact"] != tc.impact || row["urgency"] != tc.urgency || row["correlation_id"] != "act-"+tc.priority ||
				row["short_description"] != "Phish reported" || row["description"] != "details" {
				t.Fatalf("row = %v", row)
			}
			if res.Output["ticket_id"] != row["number"] || res.Output["servicenow_priority"] != tc.snPriority ||
				!strings.HasPrefix(res.Output["url"].(string), p.URL+"/incident.do?sys_id=") {
				t.Fatalf("result = %+v", res)
			}
		})
	}
}

func TestRepeatedKeyReturnsTheFirstIncident(t *testing.T) {
	p := newPeer(t)
	c := basic(t, p, peerUser, peerPassword)
	first, err := c.CreateTicket(context.Background(), "act-1", connectors.Ticket{Title: "x"})
	if err != nil {
		t.Fatal(err)
	}
	again, err := c.CreateTicket(context.Background(), "act-1", connectors.Ticket{Title: "x"})
	if err != nil {
		t.Fatal(err)
	}
	if again.Output["ticket_id"] != first.Output["ticket_id"] || !strings.Contains(again.Message, "already filed") {
		t.Fatalf("first %+v again %+v", first, again)
	}
	if n := p.count("POST /api/now/table/incident"); n != 1 {
		t.Fatalf("%d incidents inserted", n)
	}
}

func TestOAuthClientCredentials(t *testing.T) {
	p := newPeer(t)
	c := connect(t, p, map[string]string{"client_id": peerClient, "assignment_group": "SOC", "category": "security"},
		map[string]string{"client_secret": peerSecret})
	for _, key := range []string{"a", "b"} {
		if _, err := c.CreateTicket(context.Background(), key, connectors.Ticket{Title: "x"}); err != nil {
			t.Fatal(err)
		}
	}
	if p.tokens != 1 {
		t.Fatalf("token fetched %d times", p.tokens)
	}
	if p.rows[0]["assignment_group"] != "SOC" || p.rows[0]["category"] != "security" {
		t.Fatalf("row = %v", p.rows[0])
	}
	bad := connect(t, p, map[string]string{"client_id": peerClient}, map[string]string{"client_secret": "wrong"})
	if err := bad.Test(context.Background()); !errors.Is(err, vendorhttp.ErrAuth) || !errors.Is(err, connectors.ErrPermanent) {
		t.Fatalf("wrong secret: %v", err)
	}
}

func TestWrongPasswordIsAuthAndNotRetried(t *testing.T) {
	p := newPeer(t)
	c := basic(t, p, peerUser, "wrong-pass")
	_, err := c.CreateTicket(context.Background(), "act-2", connectors.Ticket{Title: "x"})
	if !errors.Is(err, vendorhttp.ErrAuth) || !errors.Is(err, connectors.ErrPermanent) ||
		!strings.Contains(err.Error(), "User Not Authenticated") || strings.Contains(err.Error(), "wrong-pass") {
		t.Fatalf("err = %v", err)
	}
	if n := p.count("GET /api/now/table/incident"); n != 1 {
		t.Fatalf("called %d times", n)
	}
}

func TestMissingRoleIsPermissionError(t *testing.T) {
	p := newPeer(t)
	c := basic(t, p, readOnlyUser, peerPassword)
	if err := c.Test(context.Background()); err != nil {
		t.Fatalf("read access: %v", err)
	}
	_, err := c.CreateTicket(context.Background(), "act-3", connectors.Ticket{Title: "x"})
	if !errors.Is(err, vendorhttp.ErrPermission) || !errors.Is(err, connectors.ErrPermanent) {
		t.Fatalf("err = %v", err)
	}
}

func TestRateLimitIsWaitedOut(t *testing.T) {
	p := newPeer(t)
	p.throttled = 1
	c := basic(t, p, peerUser, peerPassword)
	start := time.Now()
	if _, err := c.CreateTicket(context.Background(), "act-4", connectors.Ticket{Title: "x"}); err != nil {
		t.Fatal(err)
	}
	if time.Since(start) < 900*time.Millisecond {
		t.Fatal("Retry-After was not honoured")
	}
}

func TestBadInputIsRefusedBeforeCalling(t *testing.T) {
	p := newPeer(t)
	c := basic(t, p, peerUser, peerPassword)
	for _, tc := range []struct {
		key string
		t   connectors.Ticket
	}{{"k", connectors.Ticket{}}, {"a^b", connectors.Ticket{Title: "x"}}, {"k", connectors.Ticket{Title: "x", Priority: "urgent"}}} {
		if _, err := c.CreateTicket(context.Background(), tc.key, tc.t); !errors.Is(err, connectors.ErrPermanent) {
			t.Fatalf("%+v: err = %v", tc, err)
		}
	}
	if n := p.count("GET /api/now/table/incident"); n != 0 {
		t.Fatalf("called %d times", n)
	}
	if _, err := servicenow.New(connectors.Config{Settings: map[string]string{"base_url": p.URL}}); !errors.Is(err, connectors.ErrPermanent) {
		t.Fatalf("no credentials: %v", err)
	}
}
