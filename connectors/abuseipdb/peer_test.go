package abuseipdb_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strconv"
	"sync"
	"testing"
	"time"
)

// peer answers like AbuseIPDB API v2's check endpoint: the Key header,
// Accept: application/json, ipAddress and maxAgeInDays validated, the
// documented data object, {"errors":[{detail,status}]} bodies and the
// X-RateLimit-* and Retry-After headers of its daily quota.
type peer struct {
	*httptest.Server

	mu        sync.Mutex
	calls     int
	remaining int // daily quota left
	reports   map[string]map[string]any
}

const (
	goodKey    = "abuse-good-key"
	blockedKey = "abuse-suspended-key"
	dailyLimit = 1000
)

func newPeer(t *testing.T) *peer {
	p := &peer{remaining: dailyLimit, reports: map[string]map[string]any{}}
	p.Server = httptest.NewServer(http.HandlerFunc(p.serve))
	t.Cleanup(p.Close)
	return p
}

func abuseError(w http.ResponseWriter, status int, detail string, param string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	e := map[string]any{"detail": detail, "status": status}
	if param != "" {
		e["source"] = map[string]string{"parameter": param}
	}
	_ = json.NewEncoder(w).Encode(map[string]any{"errors": []any{e}})
}

func (p *peer) serve(w http.ResponseWriter, r *http.Request) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.calls++
	switch r.Header.Get("Key") {
	case goodKey:
	case blockedKey:
		abuseError(w, http.StatusForbidden, "Your account does not have access to this endpoint.", "")
		return
	default:
		abuseError(w, http.StatusUnauthorized, "Authentication failed. Your API key is either missing, incorrect, or revoked. Note: The APIv2 key differs from the APIv1 key.", "")
		return
	}
	if r.Method != "GET" || r.URL.Path != "/api/v2/check" || r.Header.Get("Accept") != "application/json" {
		abuseError(w, http.StatusNotFound, "Not found.", "")
		return
	}
	w.Header().Set("X-RateLimit-Limit", strconv.Itoa(dailyLimit))
	if p.remaining == 0 {
		w.Header().Set("X-RateLimit-Remaining", "0")
		w.Header().Set("Retry-After", "3600")
		w.Header().Set("X-RateLimit-Reset", strconv.FormatInt(time.Now().Add(time.Hour).Unix(), 10))
		abuseError(w, http.StatusTooManyRequests, fmt.Sprintf("Daily rate limit of %d requests exceeded for this endpoint. See headers for additional details.", dailyLimit), "")
		return
	}
	q := r.URL.Query()
	if age, err := strconv.Atoi(q.Get("maxAgeInDays")); q.Has("maxAgeInDays") && (err != nil || age < 1 || age > 365) {
		abuseError(w, http.StatusUnprocessableEntity, "The max age in days must be between 1 and 365.", "maxAgeInDays")
		return
	}
	addr, err := netip.ParseAddr(q.Get("ipAddress"))
	if err != nil {
		abuseError(w, http.StatusUnprocessableEntity, "The ip address must be a valid IPv4 or IPv6 address (e.g. 8.8.8.8 or 2001:4860:4860::8888).", "ipAddress")
		return
	}
	p.remaining--
	w.Header().Set("X-RateLimit-Remaining", strconv.Itoa(p.remaining))
	data := map[string]any{"ipAddress": addr.String(), "isPublic": !addr.IsPrivate() && !addr.IsLoopback(),
		"ipVersion": map[bool]int{true: 4, false: 6}[addr.Is4()], "isWhitelisted": false, "abuseConfidenceScore": 0,
		"countryCode": nil, "usageType": nil, "isp": "", "domain": nil, "hostnames": []string{}, "isTor": false,
		"totalReports": 0, "numDistinctUsers": 0, "lastReportedAt": nil}
	for k, v := range p.reports[addr.String()] {
		data[k] = v
	}
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(map[string]any{"data": data})
}
