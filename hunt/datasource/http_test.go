package datasource_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/vigil-soc/vigil/hunt/datasource"
	"github.com/vigil-soc/vigil/hunt/huntest"
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
