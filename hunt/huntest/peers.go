package huntest

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/vigil-soc/vigil/hunt/datasource"
	"github.com/vigil-soc/vigil/outbound"
)

// Peer is a local stand-in for a log store's REST API: it checks what the
// product checks (path, method, auth, body) and answers in the product's
// shape. Requests records the bodies it accepted.
type Peer struct {
	*httptest.Server
	mu       sync.Mutex
	requests []string
}

// Requests returns the bodies of the accepted requests.
func (p *Peer) Requests() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]string(nil), p.requests...)
}

func newPeer(t *testing.T, h func(w http.ResponseWriter, r *http.Request, body []byte) bool) *Peer {
	p := &Peer{}
	p.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		if r.Method != http.MethodPost {
			http.Error(w, `{"error":"method"}`, http.StatusMethodNotAllowed)
			return
		}
		if h(w, r, body) {
			p.mu.Lock()
			p.requests = append(p.requests, string(body))
			p.mu.Unlock()
		}
	}))
	t.Cleanup(p.Close)
	return p
}

func fail(w http.ResponseWriter, status int, body string) bool {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = io.WriteString(w, body)
	return false
}

// ElasticPeer answers POST /<index>/_search for ApiKey apiKey with docs,
// at most the request's size of them.
func ElasticPeer(t *testing.T, index, apiKey string, docs []map[string]any) *Peer {
	return newPeer(t, func(w http.ResponseWriter, r *http.Request, body []byte) bool {
		if r.Header.Get("Authorization") != "ApiKey "+apiKey {
			return fail(w, 401, `{"error":{"type":"security_exception","reason":"unable to authenticate"},"status":401}`)
		}
		if r.URL.Path != "/"+index+"/_search" {
			return fail(w, 404, `{"error":{"type":"index_not_found_exception"},"status":404}`)
		}
		var q struct {
			Size  *int `json:"size"`
			Query struct {
				Bool struct {
					Must   []map[string]any `json:"must"`
					Filter []struct {
						Range map[string]struct {
							Gte string `json:"gte"`
							Lt  string `json:"lt"`
						} `json:"range"`
					} `json:"filter"`
				} `json:"bool"`
			} `json:"query"`
		}
		if err := json.Unmarshal(body, &q); err != nil || q.Size == nil || len(q.Query.Bool.Must) != 1 || len(q.Query.Bool.Filter) != 1 {
			return fail(w, 400, `{"error":{"type":"parsing_exception"},"status":400}`)
		}
		for _, rg := range q.Query.Bool.Filter[0].Range {
			if _, err := time.Parse(time.RFC3339Nano, rg.Gte); err != nil {
				return fail(w, 400, `{"error":{"type":"parse_exception","reason":"failed to parse date field"},"status":400}`)
			}
		}
		hits := []map[string]any{}
		for i, d := range docs {
			if i == *q.Size {
				break
			}
			hits = append(hits, map[string]any{"_index": index, "_id": fmt.Sprint("doc-", i), "_score": 1.0, "_source": d})
		}
		writeJSON(w, map[string]any{"took": 3, "timed_out": false,
			"_shards": map[string]any{"total": 1, "successful": 1, "skipped": 0, "failed": 0},
			"hits":    map[string]any{"total": map[string]any{"value": len(docs), "relation": "eq"}, "max_score": 1.0, "hits": hits}})
		return true
	})
}

// SplunkPeer answers POST /services/search/jobs/export for Bearer token;
// check vets the search string (nil accepts any) and a refusal answers 400
// with Splunk's messages shape.
func SplunkPeer(t *testing.T, token string, check func(search string) error, results []map[string]any) *Peer {
	return newPeer(t, func(w http.ResponseWriter, r *http.Request, body []byte) bool {
		if r.Header.Get("Authorization") != "Bearer "+token {
			return fail(w, 401, `{"messages":[{"type":"WARN","text":"call not properly authenticated"}]}`)
		}
		if r.URL.Path != "/services/search/jobs/export" {
			return fail(w, 404, `{"messages":[{"type":"ERROR","text":"Not Found"}]}`)
		}
		if !strings.HasPrefix(r.Header.Get("Content-Type"), "application/x-www-form-urlencoded") {
			return fail(w, 400, `{"messages":[{"type":"FATAL","text":"expected a form body"}]}`)
		}
		form, err := parseForm(string(body))
		if err != nil {
			return fail(w, 400, `{"messages":[{"type":"FATAL","text":"bad form"}]}`)
		}
		search := form["search"]
		if !strings.HasPrefix(search, "search ") && !strings.HasPrefix(search, "|") {
			return fail(w, 400, `{"messages":[{"type":"FATAL","text":"Unknown search command"}]}`)
		}
		if form["output_mode"] != "json" || form["earliest_time"] == "" || form["latest_time"] == "" {
			return fail(w, 400, `{"messages":[{"type":"FATAL","text":"missing output_mode or time range"}]}`)
		}
		if check != nil {
			if err := check(search); err != nil {
				msg, _ := json.Marshal(err.Error())
				return fail(w, 400, `{"messages":[{"type":"FATAL","text":`+string(msg)+`}]}`)
			}
		}
		w.Header().Set("Content-Type", "application/json")
		for i, res := range results {
			line := map[string]any{"preview": false, "offset": i, "result": res}
			if i == len(results)-1 {
				line["lastrow"] = true
			}
			b, _ := json.Marshal(line)
			_, _ = w.Write(append(b, '\n'))
		}
		return true
	})
}

// LogAnalyticsPeer answers POST /v1/workspaces/<workspace>/query for Bearer
// token with one PrimaryResult table.
func LogAnalyticsPeer(t *testing.T, workspace, token string, columns []string, rows [][]any) *Peer {
	return newPeer(t, func(w http.ResponseWriter, r *http.Request, body []byte) bool {
		if r.Header.Get("Authorization") != "Bearer "+token {
			return fail(w, 401, `{"error":{"code":"AuthorizationRequiredError","message":"Valid authentication was not provided"}}`)
		}
		if r.URL.Path != "/v1/workspaces/"+workspace+"/query" {
			return fail(w, 404, `{"error":{"code":"WorkspaceNotFoundError","message":"workspace not found"}}`)
		}
		var q struct {
			Query    string `json:"query"`
			Timespan string `json:"timespan"`
		}
		err := json.Unmarshal(body, &q)
		from, to, _ := strings.Cut(q.Timespan, "/")
		_, e1 := time.Parse(time.RFC3339, from)
		_, e2 := time.Parse(time.RFC3339, to)
		if err != nil || q.Query == "" || e1 != nil || e2 != nil {
			return fail(w, 400, `{"error":{"code":"BadArgumentError","message":"The request had some invalid properties"}}`)
		}
		cols := make([]map[string]string, len(columns))
		for i, c := range columns {
			cols[i] = map[string]string{"name": c, "type": "string"}
		}
		writeJSON(w, map[string]any{"tables": []any{map[string]any{"name": "PrimaryResult", "columns": cols, "rows": rows}}})
		return true
	})
}

// CustomPeer answers POST / for Bearer token when the body has query, from
// and to, with {"rows": rows}.
func CustomPeer(t *testing.T, token string, rows []map[string]any) *Peer {
	return newPeer(t, func(w http.ResponseWriter, r *http.Request, body []byte) bool {
		if r.Header.Get("Authorization") != "Bearer "+token {
			return fail(w, 401, `{"error":"unauthorized"}`)
		}
		var q struct {
			Query string `json:"query"`
			From  string `json:"from"`
			To    string `json:"to"`
		}
		if err := json.Unmarshal(body, &q); err != nil || q.Query == "" || q.From == "" || q.To == "" {
			return fail(w, 400, `{"error":"query, from and to are required"}`)
		}
		writeJSON(w, map[string]any{"rows": rows})
		return true
	})
}

func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(v)
}

// parseForm decodes an application/x-www-form-urlencoded body.
func parseForm(body string) (map[string]string, error) {
	vals, err := url.ParseQuery(body)
	out := map[string]string{}
	for k, v := range vals {
		out[k] = v[0]
	}
	return out, err
}

// LocalPeers are source options whose outbound policy lets HTTP sources
// reach the peers of a test (plain http on 127.0.0.1), as an admin would
// allow an internal log store in setting outbound.
func LocalPeers() datasource.Options {
	return datasource.Options{Outbound: func(context.Context) outbound.Policy {
		return outbound.Policy{AllowHTTP: true, AllowHosts: []string{"127.0.0.1"}}
	}}
}
