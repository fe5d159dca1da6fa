package vendorhttp_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"golang.org/x/oauth2"
	"golang.org/x/oauth2/clientcredentials"

	"github.com/vigil-soc/vigil/connectors"
	"github.com/vigil-soc/vigil/connectors/vendorhttp"
)

func client(url string) *vendorhttp.Client {
	return &vendorhttp.Client{Vendor: "Peer", BaseURL: url, HTTP: &http.Client{Timeout: 5 * time.Second}}
}

func TestRetryAfterIsHonouredThenSucceeds(t *testing.T) {
	var calls atomic.Int32
	var gap time.Duration
	var first time.Time
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if calls.Add(1) == 1 {
			first = time.Now()
			w.Header().Set("Retry-After", "1")
			w.WriteHeader(http.StatusTooManyRequests)
			_, _ = w.Write([]byte(`{"errors":[{"message":"quota exceeded"}]}`))
			return
		}
		gap = time.Since(first)
		_, _ = w.Write([]byte(`{"ok":true}`))
	}))
	defer srv.Close()
	var out struct{ OK bool }
	if _, err := client(srv.URL).Do(context.Background(), vendorhttp.Request{Method: "GET", Path: "/x", Out: &out}); err != nil {
		t.Fatal(err)
	}
	if !out.OK || calls.Load() != 2 || gap < 900*time.Millisecond {
		t.Fatalf("ok=%v calls=%d gap=%s", out.OK, calls.Load(), gap)
	}
}

func TestLongRetryAfterReturnsRetryableError(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Retry-After", "3600")
		w.WriteHeader(http.StatusTooManyRequests)
	}))
	defer srv.Close()
	_, err := client(srv.URL).Do(context.Background(), vendorhttp.Request{Method: "GET", Path: "/"})
	var ve *vendorhttp.Error
	if !errors.As(err, &ve) || !errors.Is(err, vendorhttp.ErrRateLimited) || errors.Is(err, connectors.ErrPermanent) {
		t.Fatalf("err = %v", err)
	}
	if ve.RetryAfter != time.Hour {
		t.Fatalf("RetryAfter = %s", ve.RetryAfter)
	}
}

func TestStatusesMapToKinds(t *testing.T) {
	cases := []struct {
		status    int
		kind      error
		permanent bool
	}{
		{401, vendorhttp.ErrAuth, true},
		{403, vendorhttp.ErrPermission, true},
		{404, vendorhttp.ErrNotFound, true},
		{400, vendorhttp.ErrVendor, true},
		{502, vendorhttp.ErrVendor, false},
	}
	for _, c := range cases {
		var calls atomic.Int32
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			calls.Add(1)
			w.WriteHeader(c.status)
			_, _ = w.Write([]byte(`{"error":{"code":"x","message":"vendor says no"}}`))
		}))
		cl := client(srv.URL)
		cl.MaxWait = 10 * time.Millisecond
		_, err := cl.Do(context.Background(), vendorhttp.Request{Method: "POST", Path: "/a", Body: map[string]any{"a": 1}})
		srv.Close()
		if !errors.Is(err, c.kind) || errors.Is(err, connectors.ErrPermanent) != c.permanent {
			t.Errorf("%d: err = %v", c.status, err)
		}
		if !strings.Contains(err.Error(), "vendor says no") {
			t.Errorf("%d: vendor message missing: %v", c.status, err)
		}
		if c.permanent && calls.Load() != 1 {
			t.Errorf("%d: permanent error retried %d times", c.status, calls.Load())
		}
	}
}

func TestOversizedAnswerIsRefused(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = w.Write([]byte(strings.Repeat("a", 2048)))
	}))
	defer srv.Close()
	cl := client(srv.URL)
	cl.MaxBody = 1024
	if _, err := cl.Do(context.Background(), vendorhttp.Request{Method: "GET", Path: "/"}); !errors.Is(err, connectors.ErrPermanent) {
		t.Fatalf("err = %v", err)
	}
}

func TestClientCredentialsTokenIsCachedAndRefusalIsAuth(t *testing.T) {
	var tokens atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/oauth2/token":
			_ = r.ParseForm()
			id, secret, _ := r.BasicAuth()
			if id == "" {
				id, secret = r.PostForm.Get("client_id"), r.PostForm.Get("client_secret")
			}
			if r.PostForm.Get("grant_type") != "client_credentials" || id != "cid" || secret != "good" {
				w.Header().Set("Content-Type", "application/json")
				w.WriteHeader(http.StatusUnauthorized)
				_, _ = w.Write([]byte(`{"error":"invalid_client","error_description":"client secret is wrong"}`))
				return
			}
			tokens.Add(1)
			w.Header().Set("Content-Type", "application/json")
			_, _ = w.Write([]byte(`{"access_token":"tok","token_type":"bearer","expires_in":1799}`))
		default:
			if r.Header.Get("Authorization") != "Bearer tok" {
				w.WriteHeader(http.StatusUnauthorized)
				return
			}
			_, _ = w.Write([]byte(`{}`))
		}
	}))
	defer srv.Close()
	hc := &http.Client{Timeout: 5 * time.Second}
	cl := client(srv.URL)
	cl.Auth = vendorhttp.ClientCredentials("Peer", clientcredentials.Config{ClientID: "cid", ClientSecret: "good", TokenURL: srv.URL + "/oauth2/token"}, hc)
	for i := 0; i < 3; i++ {
		if _, err := cl.Do(context.Background(), vendorhttp.Request{Method: "GET", Path: "/devices"}); err != nil {
			t.Fatal(err)
		}
	}
	if tokens.Load() != 1 {
		t.Fatalf("token fetched %d times, want 1", tokens.Load())
	}
	bad := client(srv.URL)
	bad.Auth = vendorhttp.ClientCredentials("Peer", clientcredentials.Config{ClientID: "cid", ClientSecret: "bad", TokenURL: srv.URL + "/oauth2/token"}, hc)
	_, err := bad.Do(context.Background(), vendorhttp.Request{Method: "GET", Path: "/devices"})
	if !errors.Is(err, vendorhttp.ErrAuth) || !errors.Is(err, connectors.ErrPermanent) || strings.Contains(err.Error(), "bad") && strings.Contains(err.Error(), "secret=bad") {
		t.Fatalf("err = %v", err)
	}
}

func TestEpochResetHeadersSetTheWait(t *testing.T) {
	for _, name := range []string{"X-RateLimit-RetryAfter", "X-Rate-Limit-Reset"} {
		reset := time.Now().Add(2 * time.Hour).Unix()
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set(name, strconv.FormatInt(reset, 10))
			w.WriteHeader(http.StatusTooManyRequests)
		}))
		_, err := client(srv.URL).Do(context.Background(), vendorhttp.Request{Method: "GET", Path: "/"})
		srv.Close()
		var ve *vendorhttp.Error
		if !errors.As(err, &ve) || ve.RetryAfter < time.Hour || ve.RetryAfter > 2*time.Hour {
			t.Fatalf("%s: err = %v", name, err)
		}
	}
}

func TestRefusedTokenRequestIsAuth(t *testing.T) {
	for _, tc := range []struct {
		name   string
		status int
		body   string
		detail string
	}{
		{"400 invalid_client", http.StatusBadRequest, `{"error":"invalid_client","error_description":"AADSTS7000215: Invalid client secret"}`, "AADSTS7000215"},
		{"401", http.StatusUnauthorized, `{"error":"invalid_client"}`, "invalid_client"},
		{"403 with an errors array", http.StatusForbidden, `{"errors":[{"code":403,"message":"Failed to issue access token - Not Authorized"}]}`, "Not Authorized"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "application/json")
				w.WriteHeader(tc.status)
				_, _ = w.Write([]byte(tc.body))
			}))
			defer srv.Close()
			cl := client(srv.URL)
			cl.Auth = vendorhttp.ClientCredentials("Peer", clientcredentials.Config{ClientID: "cid", ClientSecret: "bad",
				TokenURL: srv.URL + "/oauth2/token", AuthStyle: oauth2.AuthStyleInParams}, &http.Client{Timeout: 5 * time.Second})
			_, err := cl.Do(context.Background(), vendorhttp.Request{Method: "GET", Path: "/devices"})
			if !errors.Is(err, vendorhttp.ErrAuth) || !errors.Is(err, connectors.ErrPermanent) || !strings.Contains(err.Error(), tc.detail) {
				t.Fatalf("err = %v, want a permanent ErrAuth naming %q", err, tc.detail)
			}
		})
	}
}
