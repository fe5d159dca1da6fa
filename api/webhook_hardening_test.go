package api_test

import (
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/vigil-soc/vigil/api"
	"github.com/vigil-soc/vigil/intake"
	"github.com/vigil-soc/vigil/internal/testenv"
	"github.com/vigil-soc/vigil/store"
)

func countIncidentsFrom(t *testing.T, source string) int64 {
	t.Helper()
	var n int64
	if err := env.store.DB().Model(&store.Incident{}).Where("external_source = ?", source).Count(&n).Error; err != nil {
		t.Fatal(err)
	}
	return n
}

// A captured delivery replayed with its signature spelled differently
// carries the same MAC and must be recognised as the same delivery.
func TestWebhookReplayWithRespelledSignature(t *testing.T) {
	name := "respell-" + randomSuffix()
	secret := registerSource(t, name, nil)
	body := strings.Replace(edrAlert, "%s", "respell-"+randomSuffix(), 1)
	ts := time.Now().Unix()
	canonical := intake.Sign(secret, ts, []byte(body))
	hexPart := strings.TrimPrefix(canonical, "sha256=")
	post := func(sig string) response {
		return doRequest(t, http.DefaultClient, env.server.URL, http.MethodPost, "/api/webhooks/"+name, "", body,
			map[string]string{"X-Webhook-Signature": sig, "X-Webhook-Timestamp": strconv.FormatInt(ts, 10)})
	}
	expectStatus(t, post(canonical), http.StatusCreated)
	for _, sig := range []string{
		canonical, // the exact delivery again
		"SHA256=" + hexPart,
		"sha256=" + strings.ToUpper(hexPart),
		"SHA256=" + strings.ToUpper(hexPart),
		"Sha256=" + hexPart[:32] + strings.ToUpper(hexPart[32:]),
		" " + canonical + " ",
	} {
		r := post(sig)
		expectStatus(t, r, http.StatusConflict)
		if r.errCode() != "replay_detected" {
			t.Fatalf("replay as %q: %s", sig, r.Raw)
		}
	}
	if n := countIncidentsFrom(t, name); n != 1 {
		t.Fatalf("one delivery and its respellings made %d incidents", n)
	}
}

// A respelling that arrives first does not let the canonical spelling
// through afterwards either.
func TestWebhookReplayOfRespelledFirstDelivery(t *testing.T) {
	name := "respell-" + randomSuffix()
	secret := registerSource(t, name, nil)
	body := strings.Replace(edrAlert, "%s", "respell-"+randomSuffix(), 1)
	ts := time.Now().Unix()
	canonical := intake.Sign(secret, ts, []byte(body))
	headers := func(sig string) map[string]string {
		return map[string]string{"X-Webhook-Signature": sig, "X-Webhook-Timestamp": strconv.FormatInt(ts, 10)}
	}
	first := doRequest(t, http.DefaultClient, env.server.URL, http.MethodPost, "/api/webhooks/"+name, "", body,
		headers(strings.ToUpper(canonical)))
	expectStatus(t, first, http.StatusCreated)
	again := doRequest(t, http.DefaultClient, env.server.URL, http.MethodPost, "/api/webhooks/"+name, "", body, headers(canonical))
	expectStatus(t, again, http.StatusConflict)
}

// postStalled sends a webhook request whose body never arrives and returns
// the answer, which must come without the server waiting for the body.
func postStalled(t *testing.T, base, path string, headers map[string]string) response {
	t.Helper()
	pr, pw := io.Pipe()
	t.Cleanup(func() { _ = pw.Close() })
	go func() { _, _ = pw.Write([]byte(`{"event_type":`)) }()
	// A server that waits for the body would wait for ever; give up on it
	// after a while so the test fails instead of hanging.
	var gaveUp atomic.Bool
	timer := time.AfterFunc(5*time.Second, func() {
		gaveUp.Store(true)
		_ = pw.CloseWithError(errors.New("body withheld"))
	})
	defer timer.Stop()
	req, err := http.NewRequest(http.MethodPost, base+path, pr)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	for k, v := range headers {
		req.Header.Set(k, v)
	}
	hc := &http.Client{Timeout: 10 * time.Second}
	res, err := hc.Do(req)
	if err != nil || gaveUp.Load() {
		t.Fatalf("no answer while the body was withheld (the server waited for it): %v", err)
	}
	defer res.Body.Close()
	raw, _ := io.ReadAll(res.Body)
	out := response{Status: res.StatusCode, Header: res.Header, Raw: raw}
	if len(raw) > 0 && raw[0] == '{' {
		if err := json.Unmarshal(raw, &out.Body); err != nil {
			t.Fatalf("answer is not JSON: %s", raw)
		}
	}
	return out
}

// Requests that can never be admitted are refused on their path and
// headers alone, before the body is read.
func TestWebhookRefusesBeforeReadingTheBody(t *testing.T) {
	name := "early-" + randomSuffix()
	registerSource(t, name, nil)
	now := strconv.FormatInt(time.Now().Unix(), 10)
	fakeMAC := "sha256=" + strings.Repeat("ab", 32)
	cases := []struct {
		name    string
		source  string
		headers map[string]string
		status  int
		code    string
	}{
		{"unknown source", "no-such-" + randomSuffix(), map[string]string{"X-Webhook-Signature": fakeMAC, "X-Webhook-Timestamp": now}, 404, "unknown_source"},
		{"unknown source, unsigned", "no-such-" + randomSuffix(), nil, 404, "unknown_source"},
		{"unsigned", name, nil, 401, "invalid_signature"},
		{"no signature", name, map[string]string{"X-Webhook-Timestamp": now}, 401, "invalid_signature"},
		{"signature of the wrong length", name, map[string]string{"X-Webhook-Signature": fakeMAC + "00", "X-Webhook-Timestamp": now}, 401, "invalid_signature"},
		{"timestamp not a number", name, map[string]string{"X-Webhook-Signature": fakeMAC, "X-Webhook-Timestamp": "yesterday"}, 401, "invalid_signature"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := postStalled(t, env.server.URL, "/api/webhooks/"+tc.source, tc.headers)
			expectStatus(t, r, tc.status)
			if r.errCode() != tc.code {
				t.Fatalf("code %q, want %q: %s", r.errCode(), tc.code, r.Raw)
			}
		})
	}
}

// An address that keeps failing signature checks is refused with 429
// before any work, while another sender's valid alerts keep flowing.
func TestWebhookFailedDeliveriesAreLimitedPerAddress(t *testing.T) {
	const limit = 3
	srv := httptest.NewServer(api.NewRouter(api.Options{
		Store: env.store, Temporal: env.temporal, Settings: env.settings, Log: testenv.Logger(), Version: "test",
		Secrets: env.box, Dispatcher: env.dispatcher, TrustedProxies: []string{"127.0.0.1", "::1"},
		WebhookFailuresPerMinute: limit,
	}))
	t.Cleanup(srv.Close)
	name := "flood-" + randomSuffix()
	secret := registerSource(t, name, nil)
	attacker, sender := "203.0.113.7", "198.51.100.9"
	signed := func(from, body, key string) response {
		ts := time.Now().Unix()
		return doRequest(t, http.DefaultClient, srv.URL, http.MethodPost, "/api/webhooks/"+name, "", body, map[string]string{
			"X-Webhook-Signature": intake.Sign(key, ts, []byte(body)),
			"X-Webhook-Timestamp": strconv.FormatInt(ts, 10),
			"X-Forwarded-For":     from,
		})
	}
	alert := func() string { return strings.Replace(edrAlert, "%s", "flood-"+randomSuffix(), 1) }

	for i := range limit {
		r := signed(attacker, alert(), "guessed-secret-"+strconv.Itoa(i))
		expectStatus(t, r, http.StatusUnauthorized)
	}
	// Now even a correctly signed alert from that address is refused
	// unread, as is a probe of unknown sources.
	throttled := signed(attacker, alert(), secret)
	expectStatus(t, throttled, http.StatusTooManyRequests)
	if throttled.errCode() != "rate_limited" || throttled.Header.Get("Retry-After") == "" {
		t.Fatalf("throttled delivery: %v %s", throttled.Header, throttled.Raw)
	}
	stalled := postStalled(t, srv.URL, "/api/webhooks/no-such-"+randomSuffix(), map[string]string{"X-Forwarded-For": attacker})
	expectStatus(t, stalled, http.StatusTooManyRequests)

	// Successes never count: a busy sender is not slowed by its volume.
	for range limit + 2 {
		expectStatus(t, signed(sender, alert(), secret), http.StatusCreated)
	}
	// Every kind of failure counts toward the limit.
	for range limit {
		r := postStalled(t, srv.URL, "/api/webhooks/no-such-"+randomSuffix(), map[string]string{"X-Forwarded-For": sender})
		expectStatus(t, r, http.StatusNotFound)
	}
	expectStatus(t, signed(sender, alert(), secret), http.StatusTooManyRequests)
}
