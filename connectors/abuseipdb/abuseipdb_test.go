package abuseipdb_test

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/vigil-soc/vigil/connectors"
	"github.com/vigil-soc/vigil/connectors/abuseipdb"
	"github.com/vigil-soc/vigil/connectors/vendorhttp"
	"github.com/vigil-soc/vigil/connectors/vendortest"
	"github.com/vigil-soc/vigil/intel"
	"github.com/vigil-soc/vigil/triage"
)

func connect(t *testing.T, p *peer, key string) *abuseipdb.Connector {
	t.Helper()
	return vendortest.Build[*abuseipdb.Connector](t, connectors.Config{ID: t.Name(), Type: abuseipdb.Type, Settings: map[string]string{"base_url": p.URL + "/api/v2"},
		Secrets: map[string]string{"api_key": key}})
}

func TestLookupMapsAbuseConfidence(t *testing.T) {
	p := newPeer(t)
	p.reports["118.25.6.39"] = map[string]any{"abuseConfidenceScore": 100, "totalReports": 41, "countryCode": "CN",
		"usageType": "Data Center/Web Hosting/Transit", "isTor": true}
	p.reports["198.51.100.20"] = map[string]any{"abuseConfidenceScore": 72, "totalReports": 3}
	p.reports["8.8.8.8"] = map[string]any{"abuseConfidenceScore": 0, "totalReports": 12, "isWhitelisted": true}
	p.reports["203.0.113.5"] = map[string]any{"abuseConfidenceScore": 4, "totalReports": 1}
	c := connect(t, p, goodKey)
	cases := []struct {
		ip, verdict string
		score       int
		tag         string
	}{
		{"118.25.6.39", triage.ReputationMalicious, 100, "tor-exit"},
		{"198.51.100.20", triage.ReputationSuspicious, 69, "abuse-reports:3"},
		{"8.8.8.8", triage.ReputationClean, 0, "abuse-reports:12"},
		{"203.0.113.5", triage.ReputationClean, 4, "abuse-reports:1"},
		{"192.0.2.200", triage.ReputationUnknown, 0, "abuse-reports:0"},
		{"10.1.2.3", triage.ReputationUnknown, 0, "non-public"},
	}
	for _, tc := range cases {
		t.Run(tc.ip, func(t *testing.T) {
			r, err := c.Lookup(context.Background(), triage.IndicatorIP, tc.ip)
			if err != nil {
				t.Fatal(err)
			}
			if r.Verdict != tc.verdict || r.Score != tc.score || r.Source != "abuseipdb" || r.Simulated || !slices.Contains(r.Tags, tc.tag) {
				t.Fatalf("reputation = %+v", r)
			}
		})
	}
	if _, err := c.Lookup(context.Background(), triage.IndicatorDomain, "a.example"); !errors.Is(err, intel.ErrUnsupportedType) {
		t.Fatalf("domain: %v", err)
	}
}

func TestSpentDailyQuotaStopsCallingUntilReset(t *testing.T) {
	p := newPeer(t)
	p.remaining = 1
	c := connect(t, p, goodKey)
	if _, err := c.Lookup(context.Background(), triage.IndicatorIP, "192.0.2.1"); err != nil {
		t.Fatal(err)
	}
	_, err := c.Lookup(context.Background(), triage.IndicatorIP, "192.0.2.2")
	var ve *vendorhttp.Error
	if !errors.As(err, &ve) || !errors.Is(err, vendorhttp.ErrRateLimited) || errors.Is(err, connectors.ErrPermanent) ||
		ve.RetryAfter < 59*time.Minute || !strings.Contains(err.Error(), "Daily rate limit") {
		t.Fatalf("err = %v", err)
	}
	calls := p.calls
	// A connector built afresh for the next use still knows.
	_, err = connect(t, p, goodKey).Lookup(context.Background(), triage.IndicatorIP, "192.0.2.3")
	if !errors.Is(err, vendorhttp.ErrRateLimited) || p.calls != calls {
		t.Fatalf("err = %v, calls %d -> %d", err, calls, p.calls)
	}
}

func TestWrongKeyIsAuthAndNotRetried(t *testing.T) {
	p := newPeer(t)
	err := connect(t, p, "wrong-key").Test(context.Background())
	if !errors.Is(err, vendorhttp.ErrAuth) || !errors.Is(err, connectors.ErrPermanent) ||
		!strings.Contains(err.Error(), "Authentication failed") || strings.Contains(err.Error(), "wrong-key") || p.calls != 1 {
		t.Fatalf("err = %v, calls %d", err, p.calls)
	}
}

func TestForbiddenIsPermission(t *testing.T) {
	p := newPeer(t)
	_, err := connect(t, p, blockedKey).Lookup(context.Background(), triage.IndicatorIP, "192.0.2.1")
	if !errors.Is(err, vendorhttp.ErrPermission) || !errors.Is(err, connectors.ErrPermanent) {
		t.Fatalf("err = %v", err)
	}
}

func TestInvalidAddressIsPermanent(t *testing.T) {
	p := newPeer(t)
	_, err := connect(t, p, goodKey).Lookup(context.Background(), triage.IndicatorIP, "not-an-ip")
	if !errors.Is(err, connectors.ErrPermanent) || !strings.Contains(err.Error(), "valid IPv4") {
		t.Fatalf("err = %v", err)
	}
}

func TestTestPassesWithAGoodKey(t *testing.T) {
	p := newPeer(t)
	if err := connect(t, p, goodKey).Test(context.Background()); err != nil {
		t.Fatal(err)
	}
	if _, err := abuseipdb.New(connectors.Config{Secrets: map[string]string{"api_key": "k"},
		Settings: map[string]string{"max_age_days": "400"}}); !errors.Is(err, connectors.ErrPermanent) {
		t.Fatalf("max_age_days 400: %v", err)
	}
}
