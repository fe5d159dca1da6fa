package api_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/vigil-soc/vigil/connectors"
	"github.com/vigil-soc/vigil/connectors/vendorhttp"
	"github.com/vigil-soc/vigil/internal/testenv"
	"github.com/vigil-soc/vigil/store"
)

// socPeer is a local stand-in for a vendor's API: it demands a bearer
// token and an idempotency key on every write and records what it did.
type socPeer struct {
	*httptest.Server
	mu    sync.Mutex
	calls []string
	seen  map[string]bool
}

func newSOCPeer(t *testing.T) *socPeer {
	p := &socPeer{seen: map[string]bool{}}
	p.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Bearer soc-token" {
			w.WriteHeader(http.StatusUnauthorized)
			_, _ = w.Write([]byte(`{"error":"invalid token"}`))
			return
		}
		key := r.Header.Get("Idempotency-Key")
		if r.Method == http.MethodPost && key == "" {
			http.Error(w, `{"error":"Idempotency-Key required"}`, http.StatusBadRequest)
			return
		}
		var body map[string]any
		_ = json.NewDecoder(r.Body).Decode(&body)
		p.mu.Lock()
		if !p.seen[key] {
			p.calls = append(p.calls, r.Method+" "+r.URL.Path)
			p.seen[key] = true
		}
		p.mu.Unlock()
		switch r.URL.Path {
		case "/hosts/contain":
			_, _ = fmt.Fprintf(w, `{"host_id":%q,"status":"isolated","isolation_id":"c-1"}`, body["host_id"])
		case "/tickets":
			_, _ = fmt.Fprintf(w, `{"ticket_id":"SOC-42","title":%q}`, body["title"])
		case "/messages":
			_, _ = fmt.Fprintf(w, `{"message_id":"n-1","user":%q}`, body["user"])
		default:
			w.WriteHeader(http.StatusNotFound)
		}
	}))
	t.Cleanup(p.Close)
	return p
}

func (p *socPeer) received() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]string(nil), p.calls...)
}

// socSuite is a test vendor serving EDR, ticketing and notifications
// through vendorhttp against a socPeer.
type socSuite struct {
	connectors.EDR
	client *vendorhttp.Client
}

func (s socSuite) post(ctx context.Context, key, path string, body map[string]any, msg string) (connectors.Result, error) {
	var out map[string]any
	_, err := s.client.Do(ctx, vendorhttp.Request{Method: http.MethodPost, Path: path, Body: body,
		Header: http.Header{"Idempotency-Key": {key}}, Out: &out})
	if err != nil {
		return connectors.Result{}, err
	}
	return connectors.Result{Success: true, Message: msg, Output: out}, nil
}

func (s socSuite) Isolate(ctx context.Context, key, hostID, reason string) (connectors.Result, error) {
	return s.post(ctx, key, "/hosts/contain", map[string]any{"host_id": hostID, "reason": reason}, "host contained")
}

func (s socSuite) CreateTicket(ctx context.Context, key string, t connectors.Ticket) (connectors.Result, error) {
	return s.post(ctx, key, "/tickets", map[string]any{"title": t.Title, "priority": t.Priority}, "ticket filed")
}

func (s socSuite) NotifyUser(ctx context.Context, key, user, message, channel string) (connectors.Result, error) {
	return s.post(ctx, key, "/messages", map[string]any{"user": user, "text": message, "channel": channel}, "user notified")
}

func init() {
	connectors.Register(connectors.Vendor{Type: "api-test-soc", Title: "API test SOC suite",
		Kinds:  []string{connectors.KindEDR, connectors.KindTicketing, connectors.KindNotifier},
		Fields: []connectors.Field{{Name: "base_url", Required: true}, {Name: "token", Required: true, Secret: true}},
		New: func(cfg connectors.Config) (any, error) {
			token := cfg.Secrets["token"]
			return socSuite{client: &vendorhttp.Client{Vendor: "SOC suite", BaseURL: cfg.Settings["base_url"], HTTP: cfg.HTTP,
				Auth: func(_ context.Context, r *http.Request) error {
					r.Header.Set("Authorization", "Bearer "+token)
					return nil
				}}}, nil
		}})
}

const containPlaybook = `name: %s
description: contain the host, file a ticket and tell the lead
triggers:
  incident_type: %s
steps:
  - name: contain
    action: isolate_host
    parameters:
      host_id: "ws-e2e-1"
      reason: "{{ incident.number }} contained"
    output: containment
  - name: ticket
    action: create_ticket
    parameters:
      title: "{{ incident.number }}: host {{ outputs.containment.host_id }} contained"
      priority: high
    output: ticket
  - name: tell
    action: notify_user
    parameters:
      user: soc-lead@corp.example
      message: "Ticket {{ outputs.ticket.ticket_id }} filed"
`

// TestPlaybookContainsTicketsAndNotifiesThroughConfiguredConnectors runs a
// playbook whose three actions go to a configured (not simulated)
// connector that talks HTTP to a local peer.
func TestPlaybookContainsTicketsAndNotifiesThroughConfiguredConnectors(t *testing.T) {
	peer := newSOCPeer(t)
	allowLocalPeersForTest(t)
	admin := env.adminKey
	put := call(t, http.MethodPut, "/api/connectors/soc-suite", admin, map[string]any{"type": "api-test-soc",
		"settings": map[string]any{"base_url": peer.URL}, "secrets": map[string]any{"token": "soc-token"}})
	expectStatus(t, put, http.StatusCreated)
	t.Cleanup(func() { call(t, http.MethodDelete, "/api/connectors/soc-suite", admin, nil) })

	p := createPlaybook(t, fmt.Sprintf(containPlaybook, "contain-"+randomSuffix(), "x"))
	key := keyFor(t, store.RoleAnalyst)
	inc := createIncident(t, key, map[string]any{"incident_type": "malware", "source": "edr", "severity": "high", "raw_data": phishingPayload})
	r := call(t, http.MethodPost, "/api/playbooks/"+p["id"].(string)+"/run", key, map[string]any{"incident_id": inc["id"]})
	if r.Status != http.StatusCreated && r.Status != http.StatusAccepted {
		t.Fatalf("run: %s", r.Raw)
	}
	execID := r.data()["execution_id"].(string)

	// Isolation needs a senior by default.
	var actionID string
	testenv.Eventually(t, 30*time.Second, func() bool {
		acts := call(t, http.MethodGet, "/api/actions?status=pending_approval&incident_id="+inc["id"].(string), key, nil).Body["data"].([]any)
		if len(acts) == 1 {
			actionID = acts[0].(map[string]any)["id"].(string)
		}
		return actionID != ""
	}, "isolation never waited for approval")
	expectStatus(t, call(t, http.MethodPost, "/api/actions/"+actionID+"/approve", keyFor(t, store.RoleSenior), nil), http.StatusOK)

	var d map[string]any
	testenv.Eventually(t, 60*time.Second, func() bool {
		d = call(t, http.MethodGet, "/api/playbooks/"+p["id"].(string)+"/executions/"+execID, key, nil).data()
		return d["status"] == "completed" || d["status"] == "failed"
	}, "playbook run did not finish: %v", d)
	if d["status"] != "completed" {
		t.Fatalf("execution: %v", d)
	}
	got := strings.Join(peer.received(), ",")
	if got != "POST /hosts/contain,POST /tickets,POST /messages" {
		t.Fatalf("peer received %s", got)
	}
	acts := call(t, http.MethodGet, "/api/incidents/"+inc["id"].(string)+"/actions", key, nil)
	if strings.Contains(string(acts.Raw), "[simulated]") || !strings.Contains(string(acts.Raw), "SOC-42") ||
		strings.Contains(string(acts.Raw), "soc-token") {
		t.Fatalf("actions: %s", acts.Raw)
	}
}
