package jira_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"sync"
	"testing"
)

// peer behaves like a Jira Cloud site as its REST v3 reference documents:
// basic auth with e-mail and API token, the create-issue body with an ADF
// description, the enhanced JQL search, and its error bodies.
type peer struct {
	*httptest.Server
	t *testing.T

	mu        sync.Mutex
	issues    []map[string]any // created issues' fields
	calls     map[string]int   // "METHOD path" -> count
	throttled int              // answer this many requests with 429 first
}

const (
	peerEmail    = "soc-bot@example.com"
	peerToken    = "ATATT3xFfGF0-good"
	readOnlyUser = "viewer@example.com"
)

var labelInJQL = regexp.MustCompile(`^project = "SEC" AND labels = "([^"]+)"$`)

func newPeer(t *testing.T) *peer {
	p := &peer{t: t, calls: map[string]int{}}
	p.Server = httptest.NewServer(http.HandlerFunc(p.serve))
	t.Cleanup(p.Close)
	return p
}

func (p *peer) count(call string) int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.calls[call]
}

func jiraError(w http.ResponseWriter, status int, messages []string, fields map[string]string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	if messages == nil {
		messages = []string{}
	}
	if fields == nil {
		fields = map[string]string{}
	}
	_ = json.NewEncoder(w).Encode(map[string]any{"errorMessages": messages, "errors": fields})
}

func (p *peer) serve(w http.ResponseWriter, r *http.Request) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.calls[r.Method+" "+r.URL.Path]++
	if p.throttled > 0 {
		p.throttled--
		w.Header().Set("Retry-After", "1")
		jiraError(w, http.StatusTooManyRequests, []string{"Rate limit exceeded."}, nil)
		return
	}
	user, pass, ok := r.BasicAuth()
	if !ok || (user != peerEmail && user != readOnlyUser) || pass != peerToken {
		w.Header().Set("Content-Type", "text/plain")
		w.WriteHeader(http.StatusUnauthorized)
		_, _ = w.Write([]byte("Client must be authenticated to access this resource."))
		return
	}
	w.Header().Set("Content-Type", "application/json")
	switch {
	case r.Method == "GET" && r.URL.Path == "/rest/api/3/myself":
		_ = json.NewEncoder(w).Encode(map[string]any{"accountId": "5b10a2844c20165700ede21g", "emailAddress": user, "active": true})
	case r.Method == "GET" && strings.HasPrefix(r.URL.Path, "/rest/api/3/project/"):
		key := strings.TrimPrefix(r.URL.Path, "/rest/api/3/project/")
		if key != "SEC" {
			jiraError(w, http.StatusNotFound, []string{fmt.Sprintf("No project could be found with key '%s'.", key)}, nil)
			return
		}
		_ = json.NewEncoder(w).Encode(map[string]any{"id": "10000", "key": "SEC", "name": "Security"})
	case r.Method == "GET" && r.URL.Path == "/rest/api/3/search/jql":
		p.search(w, r)
	case r.Method == "POST" && r.URL.Path == "/rest/api/3/issue":
		if user == readOnlyUser {
			jiraError(w, http.StatusForbidden, []string{"You do not have permission to create issues in this project."}, nil)
			return
		}
		p.create(w, r)
	default:
		jiraError(w, http.StatusNotFound, []string{"Not found: " + r.Method + " " + r.URL.Path}, nil)
	}
}

func (p *peer) search(w http.ResponseWriter, r *http.Request) {
	m := labelInJQL.FindStringSubmatch(r.URL.Query().Get("jql"))
	if m == nil || r.URL.Query().Get("maxResults") == "" {
		jiraError(w, http.StatusBadRequest, []string{"Error in the JQL Query: " + r.URL.Query().Get("jql")}, nil)
		return
	}
	found := []any{}
	for i, f := range p.issues {
		for _, l := range f["labels"].([]any) {
			if l == m[1] {
				found = append(found, map[string]any{"id": fmt.Sprint(10001 + i), "key": fmt.Sprintf("SEC-%d", i+1),
					"self":   p.URL + fmt.Sprintf("/rest/api/3/issue/%d", 10001+i),
					"fields": map[string]any{"created": "2026-11-22T10:44:03.000+0000"}})
			}
		}
	}
	_ = json.NewEncoder(w).Encode(map[string]any{"issues": found, "isLast": true})
}

func (p *peer) create(w http.ResponseWriter, r *http.Request) {
	if !strings.HasPrefix(r.Header.Get("Content-Type"), "application/json") {
		jiraError(w, http.StatusUnsupportedMediaType, []string{"Unsupported Media Type"}, nil)
		return
	}
	var body struct {
		Fields map[string]any `json:"fields"`
	}
	if err := json.NewDecoder(r.Body).Decode(&body); err != nil || body.Fields == nil {
		jiraError(w, http.StatusBadRequest, []string{"Unexpected character in the request body."}, nil)
		return
	}
	f := body.Fields
	bad := map[string]string{}
	if proj, _ := f["project"].(map[string]any); proj["key"] != "SEC" {
		bad["project"] = "valid project is required"
	}
	if it, _ := f["issuetype"].(map[string]any); it["name"] != "Task" {
		bad["issuetype"] = "valid issue type is required"
	}
	if s, _ := f["summary"].(string); s == "" || len(s) > 255 || strings.Contains(s, "\n") {
		bad["summary"] = "You must specify a summary of the issue."
	}
	if msg := checkADF(f["description"]); msg != "" {
		bad["description"] = msg
	}
	if pr, ok := f["priority"].(map[string]any); ok {
		switch pr["name"] {
		case "Highest", "High", "Medium", "Low", "Lowest":
		default:
			bad["priority"] = "Specify the Priority (name) in the string format"
		}
	}
	labels, _ := f["labels"].([]any)
	for _, l := range labels {
		if s, _ := l.(string); s == "" || strings.ContainsAny(s, " ") {
			bad["labels"] = "The label must not contain spaces."
		}
	}
	if len(bad) > 0 {
		jiraError(w, http.StatusBadRequest, nil, bad)
		return
	}
	if labels == nil {
		f["labels"] = []any{}
	}
	p.issues = append(p.issues, f)
	n := len(p.issues)
	w.WriteHeader(http.StatusCreated)
	_ = json.NewEncoder(w).Encode(map[string]any{"id": fmt.Sprint(10000 + n), "key": fmt.Sprintf("SEC-%d", n),
		"self": p.URL + fmt.Sprintf("/rest/api/3/issue/%d", 10000+n)})
}

// checkADF applies the rules Jira enforces on a rich-text field: a doc of
// version 1 whose block nodes hold non-empty text nodes or hard breaks.
func checkADF(v any) string {
	doc, ok := v.(map[string]any)
	if !ok || doc["type"] != "doc" || doc["version"] != float64(1) {
		return "Operation value must be an Atlassian Document (see the Atlassian Document Format)"
	}
	blocks, _ := doc["content"].([]any)
	if len(blocks) == 0 {
		return "content must not be empty"
	}
	for _, b := range blocks {
		block, _ := b.(map[string]any)
		inline, _ := block["content"].([]any)
		if block["type"] != "paragraph" || len(inline) == 0 {
			return "INVALID_INPUT"
		}
		for _, n := range inline {
			node, _ := n.(map[string]any)
			switch node["type"] {
			case "text":
				if s, _ := node["text"].(string); s == "" {
					return "INVALID_INPUT: empty text node"
				}
			case "hardBreak":
			default:
				return "INVALID_INPUT"
			}
		}
	}
	return ""
}

// text returns a stored issue's description as plain text.
func (p *peer) text(i int) string {
	p.mu.Lock()
	defer p.mu.Unlock()
	var b strings.Builder
	for _, blk := range p.issues[i]["description"].(map[string]any)["content"].([]any) {
		for _, n := range blk.(map[string]any)["content"].([]any) {
			node := n.(map[string]any)
			if node["type"] == "hardBreak" {
				b.WriteString("\n")
			} else {
				b.WriteString(node["text"].(string))
			}
		}
		b.WriteString("\n\n")
	}
	return b.String()
}
