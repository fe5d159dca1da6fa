package jira_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/vigil-soc/vigil/connectors"
	"github.com/vigil-soc/vigil/connectors/jira"
	"github.com/vigil-soc/vigil/connectors/vendorhttp"
	"github.com/vigil-soc/vigil/connectors/vendortest"
)

func connect(t *testing.T, p *peer, email, token string, settings map[string]string) *jira.Connector {
	t.Helper()
	s := map[string]string{"base_url": p.URL, "email": email, "project_key": "SEC"}
	for k, v := range settings {
		s[k] = v
	}
	return vendortest.Build[*jira.Connector](t, connectors.Config{ID: "jira-test", Type: jira.Type, Settings: s,
		Secrets: map[string]string{"api_token": token}})
}

func TestCreateTicketFilesAnADFIssueWithMappedPriority(t *testing.T) {
	p := newPeer(t)
	c := connect(t, p, peerEmail, peerToken, nil)
	res, err := c.CreateTicket(context.Background(), "act-1", connectors.Ticket{
		Title: "Phishing: invoice lure", Description: "Reported by alice.\nLink clicked.\n\nHost isolated.", Priority: "critical"})
	if err != nil {
		t.Fatal(err)
	}
	if !res.Success || res.Output["ticket_id"] != "SEC-1" || res.Output["url"] != p.URL+"/browse/SEC-1" {
		t.Fatalf("result = %+v", res)
	}
	f := p.issues[0]
	if f["priority"].(map[string]any)["name"] != "Highest" || f["summary"] != "Phishing: invoice lure" {
		t.Fatalf("fields = %v", f)
	}
	if got := p.text(0); !strings.HasPrefix(got, "Reported by alice.\nLink clicked.\n\nHost isolated.\n\nFiled by Vigil") {
		t.Fatalf("description = %q", got)
	}
	if labels := f["labels"].([]any); len(labels) != 1 || labels[0] != "vigil-action-act-1" {
		t.Fatalf("labels = %v", labels)
	}
}

func TestRepeatedKeyReturnsTheFirstIssue(t *testing.T) {
	p := newPeer(t)
	c := connect(t, p, peerEmail, peerToken, nil)
	ticket := connectors.Ticket{Title: "Malware on host-7", Priority: "high"}
	first, err := c.CreateTicket(context.Background(), "act-2", ticket)
	if err != nil {
		t.Fatal(err)
	}
	again, err := c.CreateTicket(context.Background(), "act-2", ticket)
	if err != nil {
		t.Fatal(err)
	}
	if again.Output["ticket_id"] != first.Output["ticket_id"] || !strings.Contains(again.Message, "already filed") {
		t.Fatalf("first %+v, again %+v", first, again)
	}
	if n := p.count("POST /rest/api/3/issue"); n != 1 {
		t.Fatalf("%d issues created, want 1", n)
	}
	other, err := c.CreateTicket(context.Background(), "act-3", ticket)
	if err != nil || other.Output["ticket_id"] != "SEC-2" {
		t.Fatalf("other key: %+v %v", other, err)
	}
}

func TestPriorityMappingFromSettings(t *testing.T) {
	p := newPeer(t)
	c := connect(t, p, peerEmail, peerToken, map[string]string{"priorities": "low=Lowest,medium=,high=High,critical=Highest"})
	for key, prio := range map[string]string{"k-low": "low", "k-med": "medium"} {
		if _, err := c.CreateTicket(context.Background(), key, connectors.Ticket{Title: "t", Priority: prio}); err != nil {
			t.Fatal(err)
		}
	}
	var names []any
	for _, f := range p.issues {
		pr, _ := f["priority"].(map[string]any)
		names = append(names, pr["name"])
	}
	if len(names) != 2 || !(names[0] == "Lowest" && names[1] == nil || names[1] == "Lowest" && names[0] == nil) {
		t.Fatalf("priorities sent = %v", names)
	}
	if _, err := jira.New(connectors.Config{Settings: map[string]string{"base_url": p.URL, "email": "e",
		"project_key": "SEC", "priorities": "critical"}, Secrets: map[string]string{"api_token": "x"}}); !errors.Is(err, connectors.ErrPermanent) {
		t.Fatalf("malformed priorities: %v", err)
	}
}

func TestWrongTokenIsAuthAndNotRetried(t *testing.T) {
	p := newPeer(t)
	c := connect(t, p, peerEmail, "wrong", nil)
	_, err := c.CreateTicket(context.Background(), "act-4", connectors.Ticket{Title: "x"})
	if !errors.Is(err, vendorhttp.ErrAuth) || !errors.Is(err, connectors.ErrPermanent) {
		t.Fatalf("err = %v", err)
	}
	if strings.Contains(err.Error(), "wrong") {
		t.Fatalf("error leaks the token: %v", err)
	}
	if n := p.count("GET /rest/api/3/search/jql"); n != 1 {
		t.Fatalf("search called %d times", n)
	}
	if err := c.Test(context.Background()); !errors.Is(err, vendorhttp.ErrAuth) {
		t.Fatalf("Test() = %v", err)
	}
}

func TestMissingPermissionIsPermissionError(t *testing.T) {
	p := newPeer(t)
	c := connect(t, p, readOnlyUser, peerToken, nil)
	_, err := c.CreateTicket(context.Background(), "act-5", connectors.Ticket{Title: "x"})
	if !errors.Is(err, vendorhttp.ErrPermission) || !errors.Is(err, connectors.ErrPermanent) {
		t.Fatalf("err = %v", err)
	}
}

func TestRateLimitIsWaitedOut(t *testing.T) {
	p := newPeer(t)
	p.throttled = 1
	c := connect(t, p, peerEmail, peerToken, nil)
	start := time.Now()
	if _, err := c.CreateTicket(context.Background(), "act-6", connectors.Ticket{Title: "x"}); err != nil {
		t.Fatal(err)
	}
	if time.Since(start) < 900*time.Millisecond {
		t.Fatal("Retry-After was not honoured")
	}
}

func TestTestChecksCredentialsAndProject(t *testing.T) {
	p := newPeer(t)
	if err := connect(t, p, peerEmail, peerToken, nil).Test(context.Background()); err != nil {
		t.Fatal(err)
	}
	err := connect(t, p, peerEmail, peerToken, map[string]string{"project_key": "NOPE"}).Test(context.Background())
	if !errors.Is(err, vendorhttp.ErrNotFound) || !strings.Contains(err.Error(), "NOPE") {
		t.Fatalf("err = %v", err)
	}
}

func TestBadTicketIsRefusedBeforeCallingJira(t *testing.T) {
	p := newPeer(t)
	c := connect(t, p, peerEmail, peerToken, nil)
	if _, err := c.CreateTicket(context.Background(), "act-7", connectors.Ticket{Title: "  "}); !errors.Is(err, connectors.ErrPermanent) {
		t.Fatalf("err = %v", err)
	}
	if n := p.count("GET /rest/api/3/search/jql"); n != 0 {
		t.Fatalf("Jira called %d times", n)
	}
}
