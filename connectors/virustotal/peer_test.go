package virustotal_test

import (
	"encoding/base64"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
)

// peer answers like VirusTotal API v3: x-apikey authentication, object
// paths per indicator type (URL ids are unpadded base64url), objects with
// last_analysis_stats, and {"error":{"code","message"}} error bodies.
type peer struct {
	*httptest.Server

	mu        sync.Mutex
	calls     int
	objects   map[string]map[string]any // path below /api/v3 -> attributes
	quotaLeft int                       // requests before QuotaExceededError; <0 means unlimited
}

const (
	goodKey    = "vt-good-key-0123456789"
	limitedKey = "vt-limited-key"
)

func newPeer(t *testing.T) *peer {
	p := &peer{objects: map[string]map[string]any{}, quotaLeft: -1}
	p.Server = httptest.NewServer(http.HandlerFunc(p.serve))
	t.Cleanup(p.Close)
	return p
}

func stats(malicious, suspicious, harmless, undetected int) map[string]any {
	return map[string]any{"last_analysis_stats": map[string]int{"malicious": malicious, "suspicious": suspicious,
		"harmless": harmless, "undetected": undetected, "timeout": 0}}
}

func vtError(w http.ResponseWriter, status int, code, message string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(map[string]any{"error": map[string]string{"code": code, "message": message}})
}

func (p *peer) serve(w http.ResponseWriter, r *http.Request) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.calls++
	key := r.Header.Get("x-apikey")
	if key != goodKey && key != limitedKey {
		vtError(w, http.StatusUnauthorized, "WrongCredentialsError", "Wrong API key")
		return
	}
	if p.quotaLeft == 0 {
		vtError(w, http.StatusTooManyRequests, "QuotaExceededError", "Quota exceeded")
		return
	}
	p.quotaLeft--
	path, ok := strings.CutPrefix(r.URL.EscapedPath(), "/api/v3")
	if !ok || r.Method != "GET" {
		vtError(w, http.StatusNotFound, "NotFoundError", "Resource not found.")
		return
	}
	kind, id, _ := strings.Cut(strings.TrimPrefix(path, "/"), "/")
	switch kind {
	case "files", "domains", "ip_addresses":
	case "urls":
		if _, err := base64.RawURLEncoding.DecodeString(id); err != nil || strings.Contains(id, "=") {
			vtError(w, http.StatusBadRequest, "InvalidArgumentError", "Invalid URL identifier")
			return
		}
	default:
		vtError(w, http.StatusNotFound, "NotFoundError", "Resource not found.")
		return
	}
	if key == limitedKey && kind == "files" {
		vtError(w, http.StatusForbidden, "ForbiddenError", "You are not allowed to perform the requested operation")
		return
	}
	attrs, found := p.objects[path]
	if !found {
		vtError(w, http.StatusNotFound, "NotFoundError", id+" not found")
		return
	}
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(map[string]any{"data": map[string]any{"id": id, "type": strings.TrimSuffix(kind, "s"),
		"links": map[string]string{"self": p.URL + r.URL.Path}, "attributes": attrs}})
}
