package llm

import (
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/vigil-soc/vigil/triage"
)

// silentListener accepts connections and never answers on them.
func silentListener(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var conns []net.Conn
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			mu.Lock()
			conns = append(conns, c)
			mu.Unlock()
		}
	}()
	t.Cleanup(func() {
		_ = ln.Close()
		mu.Lock()
		defer mu.Unlock()
		for _, c := range conns {
			_ = c.Close()
		}
	})
	return ln.Addr().String()
}

// garbageListener answers every connection with bytes that are not HTTP.
func garbageListener(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			_, _ = c.Write([]byte("SSH-2.0-OpenSSH_9.6\r\n"))
			_ = c.Close()
		}
	}()
	t.Cleanup(func() { _ = ln.Close() })
	return ln.Addr().String()
}

// The fallback reason is shown to API callers, so whoever sets base_url
// must not learn from it whether a host or port exists: every way of not
// answering reads the same and names no address.
func TestUnreachableProviderReasonRevealsNothing(t *testing.T) {
	closed, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closedAddr := closed.Addr().String()
	_ = closed.Close()
	targets := map[string]string{
		"closed port":      closedAddr,
		"silent port":      silentListener(t),
		"non-HTTP service": garbageListener(t),
		"unknown host":     "no-such-host.invalid:8080",
	}
	for name, hostPort := range targets {
		t.Run(name, func(t *testing.T) {
			cfg := Config{BaseURL: "http://" + hostPort + "/v1", Model: testModel, Timeout: 300 * time.Millisecond}
			got, err := (&Analyzer{Config: staticConfig(cfg, true)}).Analyze(context.Background(), phishing, triage.Indicators{})
			if err != nil {
				t.Fatal(err)
			}
			if got.FallbackReason != "llm unreachable" || got.Analyzer != triage.BuiltinAnalyzerName {
				t.Fatalf("reason %q for %s", got.FallbackReason, name)
			}
			_, port, _ := net.SplitHostPort(hostPort)
			if strings.Contains(got.FallbackReason, port) {
				t.Fatalf("reason %q names the port", got.FallbackReason)
			}
		})
	}
}

// A provider's redirect must not carry the request and its key elsewhere.
func TestClientFollowsNoRedirects(t *testing.T) {
	var mu sync.Mutex
	var elsewhere []string
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		elsewhere = append(elsewhere, r.Header.Get("Authorization"))
		mu.Unlock()
		w.WriteHeader(http.StatusOK)
	}))
	t.Cleanup(other.Close)
	redirector := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, other.URL+r.URL.Path, http.StatusTemporaryRedirect)
	}))
	t.Cleanup(redirector.Close)
	cfg := Config{BaseURL: redirector.URL + "/v1", Model: testModel, APIKey: testKey, Timeout: 5 * time.Second}
	got, err := (&Analyzer{Config: staticConfig(cfg, true)}).Analyze(context.Background(), phishing, triage.Indicators{})
	if err != nil {
		t.Fatal(err)
	}
	if got.FallbackReason != "llm http 307" {
		t.Errorf("reason %q, want the redirect reported as an HTTP error", got.FallbackReason)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(elsewhere) != 0 {
		t.Errorf("the redirect target received %d requests", len(elsewhere))
	}
}
