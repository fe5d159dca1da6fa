package sentinelone

import (
	"encoding/json"
	"mime"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// consolePeer answers like a SentinelOne management console's API v2.1 as
// its documentation describes it: "Authorization: ApiToken <token>",
// role permissions per endpoint, known query parameters only, actions that
// require a filter and answer {"data":{"affected":n}}, list answers with
// data and pagination, and {"errors":[{code,detail,title}]} bodies.
type consolePeer struct {
	srv   *httptest.Server
	token string
	perms map[string]bool

	mu       sync.Mutex
	agents   map[string]*agent
	threats  []map[string]any
	actions  map[string]int
	throttle int
	requests int
}

func newConsolePeer(t *testing.T) *consolePeer {
	p := &consolePeer{token: "s1-token-value", agents: map[string]*agent{}, actions: map[string]int{},
		perms: map[string]bool{"endpoints.view": true, "endpoints.network": true, "endpoints.scan": true, "threats.view": true}}
	p.srv = httptest.NewServer(http.HandlerFunc(p.serve))
	t.Cleanup(p.srv.Close)
	return p
}

func (p *consolePeer) addAgent(id, name string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.agents[id] = &agent{ID: id, ComputerName: name, NetworkStatus: netConnected, ScanStatus: "none"}
}

func (p *consolePeer) grant(perm string, held bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.perms[perm] = held
}

func (p *consolePeer) calls(action string) int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.actions[action]
}

func (p *consolePeer) requestCount() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.requests
}

// agentAcknowledges applies pending network changes, as an agent does when
// it next checks in.
func (p *consolePeer) agentAcknowledges() {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, a := range p.agents {
		a.NetworkStatus = map[string]string{netDisconnecting: netDisconnected, netConnecting: netConnected}[a.NetworkStatus]
		if a.NetworkStatus == "" {
			a.NetworkStatus = netConnected
		}
	}
}

// finishScan ends an agent's scan and records the threats it found.
func (p *consolePeer) finishScan(id, status string, threats ...map[string]any) {
	p.mu.Lock()
	defer p.mu.Unlock()
	done := time.Now().UTC()
	p.agents[id].ScanStatus, p.agents[id].ScanFinishedAt = status, &done
	for _, th := range threats {
		th["agentRealtimeInfo"] = map[string]any{"agentId": id}
		p.threats = append(p.threats, th)
	}
}

func reply(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

func fail(w http.ResponseWriter, status, code int, title string, detail any) {
	reply(w, status, map[string]any{"errors": []map[string]any{{"code": code, "title": title, "detail": detail}}})
}

func (p *consolePeer) serve(w http.ResponseWriter, r *http.Request) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.requests++
	if p.throttle > 0 {
		p.throttle--
		fail(w, http.StatusTooManyRequests, 4290010, "Too Many Requests", nil)
		return
	}
	if r.Header.Get("Authorization") != "ApiToken "+p.token {
		fail(w, http.StatusUnauthorized, 4010010, "Authentication Failed", nil)
		return
	}
	path := strings.TrimPrefix(r.URL.Path, apiPrefix)
	perm, handle, params := p.route(r.Method, path)
	if handle == nil {
		fail(w, http.StatusNotFound, 4040010, "Resource not found", nil)
		return
	}
	for k := range r.URL.Query() {
		if !params[k] {
			fail(w, http.StatusBadRequest, 4000010, "Validation Error", map[string]any{k: []string{"Unknown field."}})
			return
		}
	}
	if !p.perms[perm] {
		fail(w, http.StatusForbidden, 4030010, "Forbidden", "Insufficient permissions")
		return
	}
	handle(w, r, path)
}

func set(keys ...string) map[string]bool {
	m := map[string]bool{}
	for _, k := range keys {
		m[k] = true
	}
	return m
}

// route picks a handler, the permission it needs and its known parameters.
func (p *consolePeer) route(method, path string) (string, func(http.ResponseWriter, *http.Request, string), map[string]bool) {
	switch method + " " + path {
	case "GET /agents":
		return "endpoints.view", p.listAgents, set("ids", "computerName", "limit", "cursor")
	case "GET /threats":
		return "threats.view", p.listThreats, set("agentIds", "createdAt__gte", "limit", "cursor")
	case "POST /agents/actions/disconnect", "POST /agents/actions/connect":
		return "endpoints.network", p.act, set()
	case "POST /agents/actions/initiate-scan":
		return "endpoints.scan", p.act, set()
	}
	return "", nil, nil
}

func listPage[T any](w http.ResponseWriter, items []T) {
	reply(w, http.StatusOK, map[string]any{"data": items, "pagination": map[string]any{"nextCursor": nil, "totalItems": len(items)}})
}

func (p *consolePeer) listAgents(w http.ResponseWriter, r *http.Request, _ string) {
	q := r.URL.Query()
	if n, err := strconv.Atoi(q.Get("limit")); q.Has("limit") && (err != nil || n < 1 || n > 1000) {
		fail(w, http.StatusBadRequest, 4000010, "Validation Error", map[string]any{"limit": []string{"Must be between 1 and 1000."}})
		return
	}
	ids := set(strings.Split(q.Get("ids"), ",")...)
	out := []agent{}
	for _, a := range p.agents {
		if (!q.Has("ids") || ids[a.ID]) && (!q.Has("computerName") || strings.EqualFold(a.ComputerName, q.Get("computerName"))) {
			out = append(out, *a)
		}
	}
	listPage(w, out)
}

func (p *consolePeer) listThreats(w http.ResponseWriter, r *http.Request, _ string) {
	since, err := time.Parse(time.RFC3339Nano, r.URL.Query().Get("createdAt__gte"))
	if err != nil {
		fail(w, http.StatusBadRequest, 4000010, "Validation Error", map[string]any{"createdAt__gte": []string{"Not a valid datetime."}})
		return
	}
	out := []map[string]any{}
	for _, th := range p.threats {
		info := th["threatInfo"].(map[string]any)
		created, _ := time.Parse(time.RFC3339Nano, info["createdAt"].(string))
		if th["agentRealtimeInfo"].(map[string]any)["agentId"] == r.URL.Query().Get("agentIds") && !created.Before(since) {
			out = append(out, th)
		}
	}
	listPage(w, out)
}

// act runs an agent action on the agents its filter selects by id.
func (p *consolePeer) act(w http.ResponseWriter, r *http.Request, path string) {
	var body struct {
		Filter map[string][]string `json:"filter"`
	}
	if ct, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type")); ct != "application/json" || json.NewDecoder(r.Body).Decode(&body) != nil {
		fail(w, http.StatusBadRequest, 4000010, "Validation Error", "invalid JSON body")
		return
	}
	if len(body.Filter["ids"]) == 0 {
		fail(w, http.StatusBadRequest, 4000010, "Validation Error", map[string]any{"filter": []string{"At least one filter is required."}})
		return
	}
	action := strings.TrimPrefix(path, "/agents/actions/")
	p.actions[action]++
	n := 0
	for _, id := range body.Filter["ids"] {
		a, ok := p.agents[id]
		if !ok {
			continue
		}
		n++
		switch action {
		case "disconnect":
			a.NetworkStatus = netDisconnecting
		case "connect":
			a.NetworkStatus = netConnecting
		case "initiate-scan":
			started := time.Now().UTC()
			a.ScanStatus, a.ScanStartedAt, a.ScanFinishedAt = scanStarted, &started, nil
		}
	}
	reply(w, http.StatusOK, map[string]any{"data": map[string]any{"affected": n}})
}
