package urlhaus_test

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/vigil-soc/vigil/connectors"
	"github.com/vigil-soc/vigil/connectors/urlhaus"
	"github.com/vigil-soc/vigil/connectors/vendorhttp"
	"github.com/vigil-soc/vigil/connectors/vendortest"
	"github.com/vigil-soc/vigil/intel"
	"github.com/vigil-soc/vigil/triage"
)

func connect(t *testing.T, p *peer, key string) *urlhaus.Connector {
	t.Helper()
	return vendortest.Build[*urlhaus.Connector](t, connectors.Config{ID: "uh", Type: urlhaus.Type, Settings: map[string]string{"base_url": p.URL + "/v1"},
		Secrets: map[string]string{"auth_key": key}})
}

func TestLookupRatesListings(t *testing.T) {
	p := newPeer(t)
	const md5 = "12c8aec5766ac3e6f26f2505e2f4a8f2"
	const sha = "01fa56184fcaa42b6ee1882787a34098c79898c182814774fd81dc18a6af0b00"
	p.urls["http://103.20.235.4/bins/mozi.m"] = map[string]any{"id": "105821", "url_status": "online",
		"threat": "malware_download", "tags": []string{"elf", "Mozi"}, "host": "103.20.235.4"}
	p.urls["http://old.example/a.exe"] = map[string]any{"url_status": "offline", "threat": "malware_download", "tags": nil}
	p.hosts["vektorex.com"] = map[string]any{"url_count": "2", "blacklists": map[string]string{"spamhaus_dbl": "abused_legit_malware", "surbl": "not listed"},
		"urls": []map[string]any{{"url_status": "offline", "threat": "malware_download", "tags": []string{"emotet"}},
			{"url_status": "offline", "threat": "malware_download", "tags": []string{"emotet", "heodo"}}}}
	p.hosts["198.51.100.66"] = map[string]any{"url_count": "1", "urls": []map[string]any{{"url_status": "online", "threat": "malware_download"}}}
	p.payloads[md5] = map[string]any{"md5_hash": md5, "file_type": "exe", "signature": "Gozi"}
	p.payloads[sha] = map[string]any{"sha256_hash": sha, "file_type": "elf", "signature": nil}
	c := connect(t, p, goodKey)
	cases := []struct {
		typ, value, verdict string
		score               int
		tag                 string
	}{
		{triage.IndicatorURL, "http://103.20.235.4/bins/mozi.m", triage.ReputationMalicious, 95, "Mozi"},
		{triage.IndicatorURL, "http://old.example/a.exe", triage.ReputationMalicious, 85, "url_status:offline"},
		{triage.IndicatorURL, "https://example.com/", triage.ReputationUnknown, 0, "not-in-urlhaus"},
		{triage.IndicatorDomain, "vektorex.com", triage.ReputationSuspicious, 60, "spamhaus-dbl:abused_legit_malware"},
		{triage.IndicatorIP, "198.51.100.66", triage.ReputationMalicious, 90, "malware-urls:1"},
		{triage.IndicatorHash, md5, triage.ReputationMalicious, 95, "Gozi"},
		{triage.IndicatorHash, sha, triage.ReputationMalicious, 95, "file_type:elf"},
		{triage.IndicatorHash, strings.Repeat("a", 40), triage.ReputationUnknown, 0, "hash-type-not-searchable-in-urlhaus"},
	}
	for _, tc := range cases {
		t.Run(tc.typ+" "+tc.value, func(t *testing.T) {
			r, err := c.Lookup(context.Background(), tc.typ, tc.value)
			if err != nil {
				t.Fatal(err)
			}
			if r.Verdict != tc.verdict || r.Score != tc.score || r.Source != "urlhaus" || r.Simulated || !slices.Contains(r.Tags, tc.tag) {
				t.Fatalf("reputation = %+v", r)
			}
		})
	}
	if _, err := c.Lookup(context.Background(), "email", "x@y"); !errors.Is(err, intel.ErrUnsupportedType) {
		t.Fatalf("err = %v", err)
	}
}

func TestRefusedKeyIsAuthAndNotRetried(t *testing.T) {
	p := newPeer(t)
	err := connect(t, p, "wrong-auth-key").Test(context.Background())
	if !errors.Is(err, vendorhttp.ErrAuth) || !errors.Is(err, connectors.ErrPermanent) || strings.Contains(err.Error(), "wrong-auth-key") || p.calls != 1 {
		t.Fatalf("err = %v, %d calls", err, p.calls)
	}
}

func TestInvalidQueryStatusIsPermanent(t *testing.T) {
	p := newPeer(t)
	_, err := connect(t, p, goodKey).Lookup(context.Background(), triage.IndicatorDomain, "")
	if !errors.Is(err, vendorhttp.ErrVendor) || !errors.Is(err, connectors.ErrPermanent) || !strings.Contains(err.Error(), "invalid_host") {
		t.Fatalf("err = %v", err)
	}
}

func TestTestPassesWithAGoodKey(t *testing.T) {
	p := newPeer(t)
	if err := connect(t, p, goodKey).Test(context.Background()); err != nil {
		t.Fatal(err)
	}
}

func TestRateLimitIsWaitedOut(t *testing.T) {
	p := newPeer(t)
	p.busy = 1
	start := time.Now()
	if err := connect(t, p, goodKey).Test(context.Background()); err != nil {
		t.Fatal(err)
	}
	if p.calls != 2 || time.Since(start) < 900*time.Millisecond {
		t.Fatalf("%d calls after %s", p.calls, time.Since(start))
	}
}
