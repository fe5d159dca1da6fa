package api_test

import (
	"net/http"
	"strconv"
	"testing"
	"time"
)

func TestRateLimitsPerPrincipal(t *testing.T) {
	h := newIsolatedServer(t)
	body := map[string]any{"incident_type": "rl", "source": "test", "severity": "low"}
	var last response
	for i := range 20 {
		last = callURL(t, h.url, http.MethodPost, "/api/incidents", h.adminKey, body)
		expectStatus(t, last, http.StatusCreated)
		if last.Header.Get("X-RateLimit-Limit") != "20" || last.Header.Get("X-RateLimit-Remaining") != strconv.Itoa(19-i) {
			t.Fatalf("write %d headers: limit %s remaining %s", i, last.Header.Get("X-RateLimit-Limit"), last.Header.Get("X-RateLimit-Remaining"))
		}
	}
	reset, err := strconv.ParseInt(last.Header.Get("X-RateLimit-Reset"), 10, 64)
	if err != nil || reset < time.Now().Unix() || reset > time.Now().Add(61*time.Second).Unix() {
		t.Fatalf("X-RateLimit-Reset %q is not a unix time within the minute", last.Header.Get("X-RateLimit-Reset"))
	}
	r := callURL(t, h.url, http.MethodPost, "/api/incidents", h.adminKey, body)
	expectStatus(t, r, http.StatusTooManyRequests)
	if r.errCode() != "rate_limited" || r.Header.Get("Retry-After") == "" {
		t.Fatalf("over the limit: %s %v", r.Raw, r.Header)
	}
	// Reads have their own budget; another principal has its own counters.
	read := callURL(t, h.url, http.MethodGet, "/api/incidents", h.adminKey, nil)
	expectStatus(t, read, http.StatusOK)
	if read.Header.Get("X-RateLimit-Limit") != "100" {
		t.Fatalf("read limit header %q", read.Header.Get("X-RateLimit-Limit"))
	}
	// Even refused anonymous calls carry the headers (counted per address).
	anon := callURL(t, h.url, http.MethodGet, "/api/incidents", "", nil)
	expectStatus(t, anon, http.StatusUnauthorized)
	if anon.Header.Get("X-RateLimit-Remaining") == "" {
		t.Fatal("anonymous /api answer lacks rate limit headers")
	}
}

func TestRateLimitsComeFromSettings(t *testing.T) {
	h := newIsolatedServer(t)
	r := callURL(t, h.url, http.MethodPut, "/api/settings/rate_limits", h.adminKey,
		map[string]any{"read_per_minute": 100, "write_per_minute": 100, "triage_per_minute": 2})
	expectStatus(t, r, http.StatusOK)
	inc := callURL(t, h.url, http.MethodPost, "/api/incidents", h.adminKey, map[string]any{"incident_type": "rl", "source": "t", "severity": "low"})
	expectStatus(t, inc, http.StatusCreated)
	path := "/api/incidents/" + inc.data()["id"].(string) + "/triage"
	// The playbook field is refused before any workflow starts, but the
	// request still counts against the triage budget.
	for range 2 {
		r := callURL(t, h.url, http.MethodPost, path, h.adminKey, map[string]any{"playbook": "none"})
		if r.Header.Get("X-RateLimit-Limit") != "2" {
			t.Fatalf("triage limit header %q", r.Header.Get("X-RateLimit-Limit"))
		}
	}
	expectStatus(t, callURL(t, h.url, http.MethodPost, path, h.adminKey, nil), http.StatusTooManyRequests)
}
