package datasource_test

import (
	"context"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/vigil-soc/vigil/hunt/datasource"
	"github.com/vigil-soc/vigil/hunt/huntest"
	"github.com/vigil-soc/vigil/outbound"
)

func TestHTTPSources(t *testing.T) {
	now := time.Now().UTC()
	req := datasource.Request{Query: "user_name:svc-backup AND result:failure", From: now.Add(-time.Hour), To: now, MaxRows: 2}
	docs := []map[string]any{{"user_name": "a"}, {"user_name": "b"}, {"user_name": "c"}}
	es := huntest.ElasticPeer(t, "logs-*", "k3y", docs)
	splunk := huntest.SplunkPeer(t, "tok", nil, docs)
	la := huntest.LogAnalyticsPeer(t, "ws-1", "tok", []string{"user_name"}, [][]any{{"a"}, {"b"}, {"c"}})
	custom := huntest.CustomPeer(t, "tok", docs)
	cases := []struct {
		name, kind string
		settings   map[string]any
		creds      map[string]string
		query      string
		wrongCreds map[string]string
	}{
		{"elasticsearch", datasource.KindSearchIndex, map[string]any{"url": es.URL, "index": "logs-*"},
			map[string]string{"api_key": "k3y"}, req.Query, map[string]string{"api_key": "nope"}},
		{"elasticsearch dsl", datasource.KindSearchIndex, map[string]any{"url": es.URL, "index": "logs-*"},
			map[string]string{"api_key": "k3y"}, `{"term":{"user_name":"a"}}`, nil},
		{"splunk", datasource.KindSIEMSearch, map[string]any{"url": splunk.URL},
			map[string]string{"token": "tok"}, "index=auth result=failure", map[string]string{"token": "x"}},
		{"log analytics", datasource.KindLogAnalytics, map[string]any{"url": la.URL, "workspace_id": "ws-1"},
			map[string]string{"token": "tok"}, "SigninLogs | where ResultType != 0", map[string]string{"token": "x"}},
		{"custom", datasource.KindCustom, map[string]any{"url": custom.URL},
			map[string]string{"token": "tok"}, "failures", map[string]string{"token": "x"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			src, err := datasource.Open(datasource.Config{Kind: c.kind, Settings: c.settings, Credentials: c.creds}, huntest.LocalPeers())
			if err != nil {
				t.Fatal(err)
			}
			r := req
			r.Query = c.query
			res, err := src.Run(context.Background(), r)
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Rows) != 2 || !res.Truncated || res.Rows[0]["user_name"] != "a" {
				t.Fatalf("rows=%v truncated=%v", res.Rows, res.Truncated)
			}
			if err := src.Test(context.Background()); err != nil {
				t.Fatalf("test: %v", err)
			}
			if c.wrongCreds != nil {
				bad, _ := datasource.Open(datasource.Config{Kind: c.kind, Settings: c.settings, Credentials: c.wrongCreds}, huntest.LocalPeers())
				if _, err := bad.Run(context.Background(), r); err == nil || !strings.Contains(err.Error(), "401") {
					t.Fatalf("wrong credentials: err = %v", err)
				}
			}
		})
	}
}

func TestHTTPSourceConfig(t *testing.T) {
	for _, c := range []struct {
		kind, field string
		settings    map[string]any
	}{
		{datasource.KindSearchIndex, "url", map[string]any{"url": "ftp://x"}},
		{datasource.KindSearchIndex, "index", map[string]any{"url": "https://es.example"}},
		{datasource.KindLogAnalytics, "workspace_id", map[string]any{"url": "https://api.loganalytics.io"}},
	} {
		_, err := datasource.Open(datasource.Config{Kind: c.kind, Settings: c.settings}, datasource.Options{})
		if ce, ok := err.(*datasource.ConfigError); !ok || ce.Field != c.field {
			t.Errorf("%s %v: err = %v, want field %s", c.kind, c.settings, err, c.field)
		}
	}
}

// An HTTP source keeps one client: its queries share a connection rather
// than dialing one each, and a policy that changes takes effect at the
// next query all the same.
func TestHTTPSourceKeepsItsConnections(t *testing.T) {
	var dialed atomic.Int32
	peer := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"rows":[{"host":"h1"}]}`))
	}))
	peer.Config.ConnState = func(_ net.Conn, s http.ConnState) {
		if s == http.StateNew {
			dialed.Add(1)
		}
	}
	peer.Start()
	defer peer.Close()
	var allowed atomic.Bool
	allowed.Store(true)
	opts := datasource.Options{Outbound: func(context.Context) outbound.Policy {
		if allowed.Load() {
			return outbound.Policy{AllowHTTP: true, AllowHosts: []string{"127.0.0.1"}}
		}
		return outbound.Policy{AllowHTTP: true}
	}}
	src, err := datasource.Open(datasource.Config{Kind: datasource.KindCustom, Settings: map[string]any{"url": peer.URL}}, opts)
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	now := time.Now()
	run := func() error {
		_, err := src.Run(context.Background(), datasource.Request{Query: "q", From: now.Add(-time.Hour), To: now})
		return err
	}
	for range 3 {
		if err := run(); err != nil {
			t.Fatal(err)
		}
	}
	if n := dialed.Load(); n != 1 {
		t.Fatalf("three queries dialed %d connections, want 1", n)
	}
	allowed.Store(false)
	if err := run(); !errors.Is(err, datasource.ErrRefused) {
		t.Fatalf("query after the policy took the host back: %v", err)
	}
	allowed.Store(true)
	if err := run(); err != nil {
		t.Fatalf("query once allowed again: %v", err)
	}
}
