package mde

import (
	"encoding/json"
	"fmt"
	"mime"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/vigil-soc/vigil/connectors/vendortest"
)

// defenderPeer answers like the Microsoft identity platform and the
// Defender for Endpoint API as their documentation describes them: a
// client-credentials token for the securitycenter scope (AADSTS errors on
// bad credentials), bearer tokens, an application permission per endpoint,
// OData filters, the required Comment, IsolationType and ScanType fields,
// 201 with a machine action, "Action is already in progress" for a
// duplicate pending action, {"error":{code,message}} bodies, and 429 with
// Retry-After.
type defenderPeer struct {
	srv    *httptest.Server
	tenant string
	secret string
	roles  map[string]bool

	mu         sync.Mutex
	machines   map[string]machine
	actions    []*machineAction
	alerts     map[string][]map[string]any
	tokenCalls int
	posts      int
	throttle   int
	requests   int
}

const peerToken = "mde-test-token"

func newDefenderPeer(t *testing.T) *defenderPeer {
	p := &defenderPeer{tenant: "contoso-tenant", secret: "s3cret-value", machines: map[string]machine{},
		alerts: map[string][]map[string]any{},
		roles:  map[string]bool{"Machine.Read.All": true, "Machine.Isolate": true, "Machine.Scan": true, "Alert.Read.All": true}}
	p.srv = httptest.NewServer(http.HandlerFunc(p.serve))
	t.Cleanup(p.srv.Close)
	return p
}

func (p *defenderPeer) addMachine(id, name string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.machines[id] = machine{ID: id, ComputerDNSName: name}
}

func (p *defenderPeer) grant(role string, held bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.roles[role] = held
}

func (p *defenderPeer) count(n *int) int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return *n
}

// settle moves every machine action to status.
func (p *defenderPeer) settle(status string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, a := range p.actions {
		a.Status, a.LastUpdateTimeUtc = status, time.Now().UTC()
	}
}

// raise records alerts on a machine.
func (p *defenderPeer) raise(machineID string, alerts ...map[string]any) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.alerts[machineID] = append(p.alerts[machineID], alerts...)
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json; odata.metadata=minimal")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

func fail(w http.ResponseWriter, status int, code, msg string) {
	writeJSON(w, status, map[string]any{"error": map[string]any{"code": code, "message": msg, "target": "00000000-0000-0000-0000-000000000000"}})
}

func (p *defenderPeer) serve(w http.ResponseWriter, r *http.Request) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if strings.HasSuffix(r.URL.Path, "/oauth2/v2.0/token") {
		p.token(w, r)
		return
	}
	p.requests++
	if p.throttle > 0 {
		p.throttle--
		w.Header().Set("Retry-After", "1")
		fail(w, http.StatusTooManyRequests, "TooManyRequests", "API calls quota exceeded! Maximum allowed 100 per minute.")
		return
	}
	if r.Header.Get("Authorization") != "Bearer "+peerToken {
		fail(w, http.StatusUnauthorized, "Unauthorized", "Authorization token is missing or invalid")
		return
	}
	role, handle := p.route(r)
	if handle == nil {
		fail(w, http.StatusNotFound, "ResourceNotFound", "no route "+r.Method+" "+r.URL.Path)
		return
	}
	if !p.roles[role] {
		fail(w, http.StatusForbidden, "Forbidden", "The application does not have any of the required application permissions ("+role+") to access the resource.")
		return
	}
	handle(w, r)
}

var (
	machinePath = regexp.MustCompile(`^/api/machines/([0-9a-f]{40})(/[A-Za-z]+)?$`)
	actionPath  = regexp.MustCompile(`^/api/machineactions/([0-9a-f-]+)$`)
)

// route picks the handler for a request and the permission it needs.
func (p *defenderPeer) route(r *http.Request) (string, func(http.ResponseWriter, *http.Request)) {
	path := r.URL.Path
	switch {
	case r.Method == http.MethodGet && path == "/api/machines":
		return "Machine.Read.All", p.listMachines
	case r.Method == http.MethodGet && path == "/api/machineactions":
		return "Machine.Read.All", p.listActions
	case r.Method == http.MethodGet && actionPath.MatchString(path):
		return "Machine.Read.All", p.getAction
	}
	m := machinePath.FindStringSubmatch(path)
	if m == nil {
		return "", nil
	}
	id := m[1]
	switch r.Method + " " + m[2] {
	case "GET ":
		return "Machine.Read.All", func(w http.ResponseWriter, r *http.Request) { p.getMachine(w, id) }
	case "GET /alerts":
		return "Alert.Read.All", func(w http.ResponseWriter, r *http.Request) { p.machineAlerts(w, id) }
	case "POST /isolate", "POST /unisolate":
		return "Machine.Isolate", func(w http.ResponseWriter, r *http.Request) { p.act(w, r, id, m[2][1:]) }
	case "POST /runAntiVirusScan":
		return "Machine.Scan", func(w http.ResponseWriter, r *http.Request) { p.act(w, r, id, m[2][1:]) }
	}
	return "", nil
}

func (p *defenderPeer) token(w http.ResponseWriter, r *http.Request) {
	p.tokenCalls++
	vendortest.MicrosoftToken{Tenant: p.tenant, Scope: DefaultScope,
		Secrets: map[string]string{"app-1": p.secret}, Tokens: map[string]string{"app-1": peerToken}}.Serve(w, r)
}

var eqFilter = regexp.MustCompile(`^(\w+) eq '([^']*)'$`)

// filterEq parses the one-term OData filters the connector sends.
func filterEq(r *http.Request, field string) (string, bool) {
	m := eqFilter.FindStringSubmatch(r.URL.Query().Get("$filter"))
	if m == nil || m[1] != field {
		return "", false
	}
	return m[2], true
}

func (p *defenderPeer) listMachines(w http.ResponseWriter, r *http.Request) {
	name, filtered := filterEq(r, "computerDnsName")
	if r.URL.Query().Has("$filter") && !filtered {
		fail(w, http.StatusBadRequest, "InvalidRequestBody", "Invalid filter")
		return
	}
	out := []machine{}
	for _, m := range p.machines {
		if !filtered || m.ComputerDNSName == name {
			out = append(out, m)
		}
	}
	writeJSON(w, http.StatusOK, map[string]any{"@odata.context": "https://api.securitycenter.microsoft.com/api/$metadata#Machines", "value": out})
}

func (p *defenderPeer) getMachine(w http.ResponseWriter, id string) {
	m, ok := p.machines[id]
	if !ok {
		fail(w, http.StatusNotFound, "ResourceNotFound", "Machine "+id+" was not found")
		return
	}
	writeJSON(w, http.StatusOK, m)
}

func (p *defenderPeer) listActions(w http.ResponseWriter, r *http.Request) {
	id, ok := filterEq(r, "machineId")
	if r.URL.Query().Has("$filter") && !ok {
		fail(w, http.StatusBadRequest, "InvalidRequestBody", "Invalid filter")
		return
	}
	out := []machineAction{}
	for _, a := range p.actions {
		if !ok || a.MachineID == id {
			out = append(out, *a)
		}
	}
	writeJSON(w, http.StatusOK, map[string]any{"value": out})
}

func (p *defenderPeer) getAction(w http.ResponseWriter, r *http.Request) {
	id := actionPath.FindStringSubmatch(r.URL.Path)[1]
	for _, a := range p.actions {
		if a.ID == id {
			writeJSON(w, http.StatusOK, a)
			return
		}
	}
	fail(w, http.StatusNotFound, "ResourceNotFound", "MachineAction "+id+" was not found")
}

func (p *defenderPeer) machineAlerts(w http.ResponseWriter, id string) {
	out := p.alerts[id]
	if out == nil {
		out = []map[string]any{}
	}
	writeJSON(w, http.StatusOK, map[string]any{"value": out})
}

// act records an isolate, unisolate or scan request after checking its
// body as the documentation requires.
func (p *defenderPeer) act(w http.ResponseWriter, r *http.Request, machineID, verb string) {
	m, ok := p.machines[machineID]
	if !ok {
		fail(w, http.StatusNotFound, "ResourceNotFound", "Machine "+machineID+" was not found")
		return
	}
	var body map[string]string
	if ct, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type")); ct != "application/json" || json.NewDecoder(r.Body).Decode(&body) != nil {
		fail(w, http.StatusBadRequest, "InvalidRequestBody", "Request body is not valid JSON")
		return
	}
	typ, scope := map[string]string{"isolate": typeIsolate, "unisolate": typeUnisolate, "runAntiVirusScan": typeScan}[verb], ""
	switch verb {
	case "isolate":
		scope = body["IsolationType"]
		if scope != "Full" && scope != "Selective" && scope != "UnManagedDevice" {
			fail(w, http.StatusBadRequest, "InvalidRequestBody", "IsolationType is not valid")
			return
		}
	case "runAntiVirusScan":
		scope = body["ScanType"]
		if scope != "Quick" && scope != "Full" {
			fail(w, http.StatusBadRequest, "InvalidRequestBody", "ScanType is required: Quick or Full")
			return
		}
	}
	if strings.TrimSpace(body["Comment"]) == "" {
		fail(w, http.StatusBadRequest, "InvalidRequestBody", "Comment is required")
		return
	}
	for _, a := range p.actions {
		if a.MachineID == machineID && a.Type == typ && (a.Status == statusPending || a.Status == statusInProgress) {
			fail(w, http.StatusBadRequest, "ActiveRequestAlreadyExists", "Action is already in progress")
			return
		}
	}
	p.posts++
	now := time.Now().UTC()
	a := &machineAction{ID: fmt.Sprintf("5382f7ea-7557-4ab7-9782-%012d", len(p.actions)+1), Type: typ, Scope: scope,
		Status: statusPending, MachineID: machineID, ComputerDNSName: m.ComputerDNSName, RequestorComment: body["Comment"],
		CreationDateTimeUtc: now.Add(time.Duration(len(p.actions)) * time.Millisecond), LastUpdateTimeUtc: now}
	p.actions = append(p.actions, a)
	writeJSON(w, http.StatusCreated, a)
}
