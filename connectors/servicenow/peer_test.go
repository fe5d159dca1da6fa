package servicenow_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
)

// peer behaves like a ServiceNow instance's Table API and OAuth token
// endpoint as documented: basic or bearer authentication, sysparm query
// parameters, {"result": ...} answers and {"error":{message,detail},
// "status":"failure"} error bodies.
type peer struct {
	*httptest.Server

	mu        sync.Mutex
	rows      []map[string]string
	calls     map[string]int
	tokens    int
	throttled int
}

const (
	peerUser     = "vigil.integration"
	peerPassword = "s3cret-pass"
	readOnlyUser = "vigil.readonly"
	peerClient   = "3e57bb02663102004d010ee8f561307a"
	peerSecret   = "client-secret-good"
	peerBearer   = "sn-access-token"
)

func newPeer(t *testing.T) *peer {
	p := &peer{calls: map[string]int{}}
	p.Server = httptest.NewServer(http.HandlerFunc(p.serve))
	t.Cleanup(p.Close)
	return p
}

func (p *peer) count(call string) int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.calls[call]
}

func snError(w http.ResponseWriter, status int, message, detail string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(map[string]any{"error": map[string]string{"message": message, "detail": detail}, "status": "failure"})
}

func (p *peer) serve(w http.ResponseWriter, r *http.Request) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.calls[r.Method+" "+r.URL.Path]++
	if r.URL.Path == "/oauth_token.do" {
		p.token(w, r)
		return
	}
	if p.throttled > 0 {
		p.throttled--
		w.Header().Set("Retry-After", "1")
		snError(w, http.StatusTooManyRequests, "Rate limit exceeded", "Too many requests for this rate limit rule")
		return
	}
	user, pass, basic := r.BasicAuth()
	switch {
	case basic && (user == peerUser || user == readOnlyUser) && pass == peerPassword:
	case r.Header.Get("Authorization") == "Bearer "+peerBearer:
		user = peerUser
	default:
		snError(w, http.StatusUnauthorized, "User Not Authenticated", "Required to provide Auth information")
		return
	}
	if r.URL.Path != "/api/now/table/incident" {
		snError(w, http.StatusBadRequest, "Invalid table", "Invalid table "+r.URL.Path)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	switch r.Method {
	case "GET":
		p.list(w, r)
	case "POST":
		if user == readOnlyUser {
			snError(w, http.StatusForbidden, "Operation Failed", "ACL Exception Insert Failed due to security constraints")
			return
		}
		p.insert(w, r)
	default:
		snError(w, http.StatusMethodNotAllowed, "Method not Supported", r.Method)
	}
}

func (p *peer) token(w http.ResponseWriter, r *http.Request) {
	_ = r.ParseForm()
	w.Header().Set("Content-Type", "application/json")
	if r.Method != "POST" || r.PostForm.Get("grant_type") != "client_credentials" ||
		r.PostForm.Get("client_id") != peerClient || r.PostForm.Get("client_secret") != peerSecret {
		w.WriteHeader(http.StatusUnauthorized)
		_, _ = w.Write([]byte(`{"error_description":"access_denied","error":"server_error"}`))
		return
	}
	p.tokens++
	_, _ = w.Write([]byte(`{"access_token":"` + peerBearer + `","scope":"useraccount","token_type":"Bearer","expires_in":1799}`))
}

func (p *peer) list(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	if q.Get("sysparm_limit") == "" {
		snError(w, http.StatusBadRequest, "limit required by this test peer", "")
		return
	}
	out := []map[string]string{}
	want, filtered := strings.CutPrefix(q.Get("sysparm_query"), "correlation_id=")
	if q.Get("sysparm_query") != "" && !filtered {
		snError(w, http.StatusBadRequest, "unexpected sysparm_query", q.Get("sysparm_query"))
		return
	}
	for _, row := range p.rows {
		if !filtered || row["correlation_id"] == want {
			out = append(out, pick(row, q.Get("sysparm_fields")))
		}
	}
	_ = json.NewEncoder(w).Encode(map[string]any{"result": out})
}

func (p *peer) insert(w http.ResponseWriter, r *http.Request) {
	var row map[string]string
	if err := json.NewDecoder(r.Body).Decode(&row); err != nil {
		snError(w, http.StatusBadRequest, "Exception while reading request", "The payload is not valid JSON.")
		return
	}
	for _, f := range []string{"impact", "urgency"} {
		if v := row[f]; v != "1" && v != "2" && v != "3" {
			snError(w, http.StatusBadRequest, "Invalid value for "+f, v)
			return
		}
	}
	if row["short_description"] == "" || row["correlation_id"] == "" {
		snError(w, http.StatusBadRequest, "short_description and correlation_id are required by this test peer", "")
		return
	}
	n := len(p.rows) + 1
	row["sys_id"] = fmt.Sprintf("46b66a40a9fe198101f243dfbc%06d", n)
	row["number"] = fmt.Sprintf("INC%07d", 10000+n)
	row["priority"] = priority(row["impact"], row["urgency"])
	row["sys_created_on"] = "2026-11-22 21:10:00"
	p.rows = append(p.rows, row)
	w.WriteHeader(http.StatusCreated)
	_ = json.NewEncoder(w).Encode(map[string]any{"result": pick(row, r.URL.Query().Get("sysparm_fields"))})
}

// priority is the default priority lookup: impact + urgency - 1.
func priority(impact, urgency string) string {
	return fmt.Sprint(int(impact[0]-'0') + int(urgency[0]-'0') - 1)
}

func pick(row map[string]string, fields string) map[string]string {
	if fields == "" {
		return row
	}
	out := map[string]string{}
	for _, f := range strings.Split(fields, ",") {
		out[f] = row[f]
	}
	return out
}
