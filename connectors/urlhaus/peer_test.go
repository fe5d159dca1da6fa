package urlhaus_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
)

// peer answers like the URLhaus API: form POSTs to /v1/url/, /v1/host/ and
// /v1/payload/ with the Auth-Key header; answers carry query_status (ok,
// no_results, invalid_*, http_post_expected), and a refused key is HTTP
// 401 with query_status unknown_auth_key.
type peer struct {
	*httptest.Server

	mu       sync.Mutex
	calls    int
	busy     int // answer this many requests with 429 and Retry-After first
	urls     map[string]map[string]any
	hosts    map[string]map[string]any
	payloads map[string]map[string]any // by md5 or sha256
}

const goodKey = "abusech-auth-key-good"

func newPeer(t *testing.T) *peer {
	p := &peer{urls: map[string]map[string]any{}, hosts: map[string]map[string]any{}, payloads: map[string]map[string]any{}}
	p.Server = httptest.NewServer(http.HandlerFunc(p.serve))
	t.Cleanup(p.Close)
	return p
}

func reply(w http.ResponseWriter, status int, body map[string]any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(body)
}

func (p *peer) serve(w http.ResponseWriter, r *http.Request) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.calls++
	if p.busy > 0 {
		p.busy--
		w.Header().Set("Retry-After", "1")
		reply(w, http.StatusTooManyRequests, map[string]any{"query_status": "rate_limited"})
		return
	}
	if r.Header.Get("Auth-Key") != goodKey {
		reply(w, http.StatusUnauthorized, map[string]any{"query_status": "unknown_auth_key"})
		return
	}
	if r.Method != "POST" {
		reply(w, http.StatusOK, map[string]any{"query_status": "http_post_expected"})
		return
	}
	if r.Header.Get("Content-Type") != "application/x-www-form-urlencoded" || r.ParseForm() != nil {
		reply(w, http.StatusOK, map[string]any{"query_status": "http_post_expected"})
		return
	}
	switch r.URL.Path {
	case "/v1/url/":
		p.lookup(w, p.urls, r.PostForm.Get("url"), "invalid_url")
	case "/v1/host/":
		p.lookup(w, p.hosts, r.PostForm.Get("host"), "invalid_host")
	case "/v1/payload/":
		md5, sha := r.PostForm.Get("md5_hash"), r.PostForm.Get("sha256_hash")
		switch {
		case md5 != "" && len(md5) != 32:
			reply(w, http.StatusOK, map[string]any{"query_status": "invalid_md5"})
		case sha != "" && len(sha) != 64:
			reply(w, http.StatusOK, map[string]any{"query_status": "invalid_sha256"})
		default:
			p.lookup(w, p.payloads, md5+sha, "invalid_md5")
		}
	default:
		reply(w, http.StatusNotFound, map[string]any{"query_status": "unknown_endpoint"})
	}
}

func (p *peer) lookup(w http.ResponseWriter, table map[string]map[string]any, key, invalid string) {
	if key == "" {
		reply(w, http.StatusOK, map[string]any{"query_status": invalid})
		return
	}
	rec, ok := table[key]
	if !ok {
		reply(w, http.StatusOK, map[string]any{"query_status": "no_results"})
		return
	}
	body := map[string]any{"query_status": "ok"}
	for k, v := range rec {
		body[k] = v
	}
	reply(w, http.StatusOK, body)
}
