package crowdstrike

import (
	"encoding/json"
	"fmt"
	"mime"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strconv"
	"sync"
	"testing"
	"time"
)

// falconPeer answers like the Falcon API as its documentation describes
// it: a client-credentials token from POST /oauth2/token (201, or 403 with
// an errors array for bad credentials), bearer tokens on every call, scopes
// per endpoint, FQL filters, the resources/errors envelope, and 429 with
// the X-RateLimit headers.
type falconPeer struct {
	srv    *httptest.Server
	secret string
	scopes map[string]bool

	mu          sync.Mutex
	devices     map[string]*device
	scans       map[string]*scan
	files       map[string][]map[string]any
	tokenCalls  int
	actionCalls int
	scanCreates int
	throttle    int
	requests    int
}

const peerToken = "falcon-test-token"

func newFalconPeer(t *testing.T) *falconPeer {
	p := &falconPeer{secret: "s3cret-value", devices: map[string]*device{}, scans: map[string]*scan{},
		files:  map[string][]map[string]any{},
		scopes: map[string]bool{"hosts:read": true, "hosts:write": true, "ods:read": true, "ods:write": true}}
	p.srv = httptest.NewServer(http.HandlerFunc(p.serve))
	t.Cleanup(p.srv.Close)
	return p
}

func (p *falconPeer) addDevice(aid, hostname string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.devices[aid] = &device{DeviceID: aid, Hostname: hostname, Status: statusNormal}
}

// grant sets whether the API client holds a scope.
func (p *falconPeer) grant(scope string, held bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.scopes[scope] = held
}

func (p *falconPeer) count(n *int) int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return *n
}

func (p *falconPeer) reply(w http.ResponseWriter, status int, resources any, errs ...apiError) {
	if errs == nil {
		errs = []apiError{}
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(map[string]any{
		"meta":      map[string]any{"query_time": 0.004, "powered_by": "peer", "trace_id": "00000000-0000-0000-0000-000000000000"},
		"resources": resources, "errors": errs})
}

func (p *falconPeer) fail(w http.ResponseWriter, status int, msg string) {
	p.reply(w, status, []any{}, apiError{Code: status, Message: msg})
}

// routes maps "METHOD path" to the scope it needs and its handler.
func (p *falconPeer) routes() map[string]struct {
	scope string
	h     func(http.ResponseWriter, *http.Request)
} {
	type route = struct {
		scope string
		h     func(http.ResponseWriter, *http.Request)
	}
	return map[string]route{
		"GET /devices/queries/devices/v1":           {"hosts:read", p.queryDevices},
		"GET /devices/entities/devices/v2":          {"hosts:read", p.getDevices},
		"POST /devices/entities/devices-actions/v2": {"hosts:write", p.deviceAction},
		"POST /ods/entities/scans/v1":               {"ods:write", p.createScan},
		"GET /ods/queries/scans/v1":                 {"ods:read", p.queryScans},
		"GET /ods/entities/scans/v1":                {"ods:read", p.getScans},
		"GET /ods/queries/malicious-files/v1":       {"ods:read", p.queryFiles},
		"GET /ods/entities/malicious-files/v1":      {"ods:read", p.getFiles},
	}
}

func (p *falconPeer) serve(w http.ResponseWriter, r *http.Request) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if r.URL.Path == "/oauth2/token" {
		p.token(w, r)
		return
	}
	p.requests++
	if p.throttle > 0 {
		p.throttle--
		w.Header().Set("X-RateLimit-Limit", "6000")
		w.Header().Set("X-RateLimit-Remaining", "0")
		w.Header().Set("X-RateLimit-RetryAfter", strconv.FormatInt(time.Now().Add(time.Second).Unix(), 10))
		p.fail(w, http.StatusTooManyRequests, "API rate limit exceeded.")
		return
	}
	if r.Header.Get("Authorization") != "Bearer "+peerToken {
		p.fail(w, http.StatusUnauthorized, "access denied, invalid bearer token")
		return
	}
	rt, ok := p.routes()[r.Method+" "+r.URL.Path]
	if !ok {
		p.fail(w, http.StatusNotFound, "no route "+r.Method+" "+r.URL.Path)
		return
	}
	if !p.scopes[rt.scope] {
		p.fail(w, http.StatusForbidden, "access denied, authorization failed")
		return
	}
	rt.h(w, r)
}

func (p *falconPeer) token(w http.ResponseWriter, r *http.Request) {
	p.tokenCalls++
	ct, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if r.Method != http.MethodPost || ct != "application/x-www-form-urlencoded" || r.ParseForm() != nil {
		p.fail(w, http.StatusBadRequest, "invalid token request")
		return
	}
	if r.PostForm.Get("client_id") != "client-1" || r.PostForm.Get("client_secret") != p.secret {
		p.fail(w, http.StatusForbidden, "Failed to issue access token - Not Authorized")
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusCreated)
	_ = json.NewEncoder(w).Encode(map[string]any{"access_token": peerToken, "token_type": "bearer", "expires_in": 1799})
}

var quoted = regexp.MustCompile(`^([a-z_.]+):'([^']*)'$`)

// fql parses the single-term filters the connector sends (field:'value').
func fql(r *http.Request) (field, value string, ok bool) {
	m := quoted.FindStringSubmatch(r.URL.Query().Get("filter"))
	if m == nil {
		return "", "", false
	}
	return m[1], m[2], true
}

func (p *falconPeer) queryDevices(w http.ResponseWriter, r *http.Request) {
	if _, err := strconv.Atoi(r.URL.Query().Get("limit")); err != nil {
		p.fail(w, http.StatusBadRequest, "limit must be an integer")
		return
	}
	ids := []string{}
	field, value, ok := fql(r)
	if r.URL.Query().Has("filter") && (!ok || field != "hostname") {
		p.fail(w, http.StatusBadRequest, "invalid filter")
		return
	}
	for aid, d := range p.devices {
		if !ok || d.Hostname == value {
			ids = append(ids, aid)
		}
	}
	p.reply(w, http.StatusOK, ids)
}

func (p *falconPeer) getDevices(w http.ResponseWriter, r *http.Request) {
	ids := r.URL.Query()["ids"]
	if len(ids) == 0 {
		p.fail(w, http.StatusBadRequest, "ids is required")
		return
	}
	out := []device{}
	for _, id := range ids {
		if d, ok := p.devices[id]; ok {
			out = append(out, *d)
		}
	}
	if len(out) == 0 {
		p.fail(w, http.StatusNotFound, "Could not find requested device IDs")
		return
	}
	p.reply(w, http.StatusOK, out)
}

// jsonBody decodes a JSON request body, refusing any other content type.
func jsonBody(r *http.Request, v any) error {
	if ct, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type")); ct != "application/json" {
		return fmt.Errorf("content type %q", ct)
	}
	return json.NewDecoder(r.Body).Decode(v)
}

func (p *falconPeer) deviceAction(w http.ResponseWriter, r *http.Request) {
	var body struct {
		IDs []string `json:"ids"`
	}
	if err := jsonBody(r, &body); err != nil || len(body.IDs) == 0 {
		p.fail(w, http.StatusBadRequest, "ids is required")
		return
	}
	next := map[string]string{"contain": statusContained, "lift_containment": statusNormal}[r.URL.Query().Get("action_name")]
	if next == "" {
		p.fail(w, http.StatusBadRequest, "invalid action_name")
		return
	}
	p.actionCalls++
	out := []map[string]string{}
	for _, id := range body.IDs {
		d, ok := p.devices[id]
		if !ok {
			p.fail(w, http.StatusNotFound, "device not found")
			return
		}
		d.Status = next
		out = append(out, map[string]string{"id": id, "path": ""})
	}
	p.reply(w, http.StatusAccepted, out)
}

func (p *falconPeer) createScan(w http.ResponseWriter, r *http.Request) {
	var body map[string]any
	if err := jsonBody(r, &body); err != nil {
		p.fail(w, http.StatusBadRequest, "invalid body")
		return
	}
	hosts, _ := body["hosts"].([]any)
	incl, _ := body["scan_inclusions"].([]any)
	paths, _ := body["file_paths"].([]any)
	desc, _ := body["description"].(string)
	_, cpu := body["cpu_priority"].(float64)
	if len(hosts) == 0 || len(incl)+len(paths) == 0 || !cpu {
		p.fail(w, http.StatusBadRequest, "hosts, cpu_priority and scan_inclusions or file_paths are required")
		return
	}
	p.scanCreates++
	s := &scan{ID: fmt.Sprintf("%032x", p.scanCreates), Hosts: []string{hosts[0].(string)}, Status: odsPending,
		Description: desc, CreatedOn: time.Now().UTC()}
	p.scans[s.ID] = s
	p.reply(w, http.StatusOK, []scan{*s})
}

func (p *falconPeer) queryScans(w http.ResponseWriter, r *http.Request) {
	field, value, ok := fql(r)
	if !ok || field != "description.keyword" {
		p.fail(w, http.StatusBadRequest, "invalid filter")
		return
	}
	ids := []string{}
	for id, s := range p.scans {
		if s.Description == value {
			ids = append(ids, id)
		}
	}
	p.reply(w, http.StatusOK, ids)
}

func (p *falconPeer) getScans(w http.ResponseWriter, r *http.Request) {
	out := []scan{}
	for _, id := range r.URL.Query()["ids"] {
		if s, ok := p.scans[id]; ok {
			out = append(out, *s)
		}
	}
	p.reply(w, http.StatusOK, out)
}

// finishScan completes a scan with the given malicious files.
func (p *falconPeer) finishScan(id string, files ...map[string]any) {
	p.mu.Lock()
	defer p.mu.Unlock()
	done := time.Now().UTC()
	p.scans[id].Status, p.scans[id].ScanCompletedOn = odsCompleted, &done
	for i, f := range files {
		f["id"], f["scan_id"] = fmt.Sprintf("%s-%d", id, i), id
	}
	p.files[id] = files
}

func (p *falconPeer) queryFiles(w http.ResponseWriter, r *http.Request) {
	field, value, ok := fql(r)
	if !ok || field != "scan_id" {
		p.fail(w, http.StatusBadRequest, "invalid filter")
		return
	}
	ids := []string{}
	for _, f := range p.files[value] {
		ids = append(ids, f["id"].(string))
	}
	p.reply(w, http.StatusOK, ids)
}

func (p *falconPeer) getFiles(w http.ResponseWriter, r *http.Request) {
	want := map[string]bool{}
	for _, id := range r.URL.Query()["ids"] {
		want[id] = true
	}
	out := []map[string]any{}
	for _, files := range p.files {
		for _, f := range files {
			if want[f["id"].(string)] {
				out = append(out, f)
			}
		}
	}
	p.reply(w, http.StatusOK, out)
}
