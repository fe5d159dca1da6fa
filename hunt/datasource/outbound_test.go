package datasource_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/vigil-soc/vigil/hunt/datasource"
	"github.com/vigil-soc/vigil/outbound"
)

// countingPeer answers every request with no rows, counting them.
func countingPeer(t *testing.T, h http.HandlerFunc) (*httptest.Server, *atomic.Int32) {
	var hits atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		if h != nil {
			h(w, r)
			return
		}
		_, _ = w.Write([]byte(`{"rows":[]}`))
	}))
	t.Cleanup(srv.Close)
	return srv, &hits
}

func policy(o outbound.Policy) datasource.Options {
	return datasource.Options{Outbound: func(context.Context) outbound.Policy { return o }}
}

func runCustom(t *testing.T, url string, opts datasource.Options) error {
	t.Helper()
	src, err := datasource.Open(datasource.Config{Kind: datasource.KindCustom, Settings: map[string]any{"url": url}}, opts)
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	_, err = src.Run(context.Background(), datasource.Request{Query: "q", From: now.Add(-time.Hour), To: now})
	return err
}

// HTTP sources obey the outbound policy of notifications: nothing internal
// is reached, by address, by name or by redirect, unless an admin allows it.
func TestHTTPSourcesObeyTheOutboundPolicy(t *testing.T) {
	peer, hits := countingPeer(t, nil)
	localhost := strings.Replace(peer.URL, "127.0.0.1", "localhost", 1)
	redirector, _ := countingPeer(t, func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "http://169.254.169.254/latest/meta-data/iam/", http.StatusTemporaryRedirect)
	})
	allowHTTP := outbound.Policy{AllowHTTP: true}
	allowLocal := outbound.Policy{AllowHTTP: true, AllowHosts: []string{"127.0.0.1"}}
	cases := []struct {
		name, url string
		opts      datasource.Options
		refused   bool // refused before any connection
		says      string
	}{
		{"default policy refuses plain http", peer.URL, datasource.Options{}, true, "only https"},
		{"internal address", peer.URL, policy(allowHTTP), true, "is internal"},
		{"cloud metadata", "http://169.254.169.254/latest/meta-data/", policy(allowHTTP), true, "metadata"},
		{"metadata even when internal hosts are allowed", "http://169.254.169.254/", policy(allowLocal), true, "metadata"},
		{"a name that resolves to an internal address", localhost, policy(allowHTTP), false, "is internal"},
		{"a redirect to the metadata endpoint", redirector.URL, policy(allowLocal), false, "metadata"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			before := hits.Load()
			err := runCustom(t, c.url, c.opts)
			if err == nil || !strings.Contains(err.Error(), c.says) {
				t.Fatalf("err = %v, want it to say %q", err, c.says)
			}
			if c.refused && !errors.Is(err, datasource.ErrRefused) {
				t.Fatalf("err = %v is not marked as refused by the policy", err)
			}
			if hits.Load() != before {
				t.Fatal("the refused call reached the peer")
			}
		})
	}
	if err := runCustom(t, peer.URL, policy(allowLocal)); err != nil {
		t.Fatalf("an allowed host: %v", err)
	}
	if hits.Load() != 1 {
		t.Fatalf("the allowed call reached the peer %d times", hits.Load())
	}
}
