package virustotal_test

import (
	"context"
	"encoding/base64"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/vigil-soc/vigil/connectors"
	"github.com/vigil-soc/vigil/connectors/vendorhttp"
	"github.com/vigil-soc/vigil/connectors/vendortest"
	"github.com/vigil-soc/vigil/connectors/virustotal"
	"github.com/vigil-soc/vigil/intel"
	"github.com/vigil-soc/vigil/triage"
)

func connect(t *testing.T, p *peer, key string, limit func(context.Context, string, int) error) *virustotal.Connector {
	t.Helper()
	return vendortest.Build[*virustotal.Connector](t, connectors.Config{ID: "vt", Type: virustotal.Type, Settings: map[string]string{"base_url": p.URL + "/api/v3"},
		Secrets: map[string]string{"api_key": key}, Limit: limit})
}

func TestLookupRatesEachIndicatorType(t *testing.T) {
	p := newPeer(t)
	const hash = "44d88612fea8a8f36de82e1278abb02f"
	const link = "http://login-micros0ft.example/verify?u=1"
	p.objects["/files/"+hash] = stats(60, 1, 0, 10)
	p.objects["/files/"+hash]["popular_threat_classification"] = map[string]any{"suggested_threat_label": "virus.eicar/test"}
	p.objects["/urls/"+base64.RawURLEncoding.EncodeToString([]byte(link))] = stats(4, 0, 60, 20)
	p.objects["/domains/example.org"] = stats(0, 0, 70, 20)
	p.objects["/ip_addresses/203.0.113.9"] = stats(1, 2, 50, 30)
	c := connect(t, p, goodKey, nil)
	cases := []struct {
		typ, value, verdict string
		score               int
		tag                 string
	}{
		{triage.IndicatorHash, hash, triage.ReputationMalicious, 100, "virus.eicar/test"},
		{triage.IndicatorURL, link, triage.ReputationMalicious, 73, "detections:4/84"},
		{triage.IndicatorDomain, "example.org", triage.ReputationClean, 0, "detections:0/90"},
		{triage.IndicatorIP, "203.0.113.9", triage.ReputationSuspicious, 60, "detections:1/83"},
		{triage.IndicatorDomain, "never-seen.example", triage.ReputationUnknown, 0, "not-in-virustotal"},
	}
	for _, tc := range cases {
		t.Run(tc.typ+" "+tc.value, func(t *testing.T) {
			r, err := c.Lookup(context.Background(), tc.typ, tc.value)
			if err != nil {
				t.Fatal(err)
			}
			if r.Verdict != tc.verdict || r.Score != tc.score || r.Source != "virustotal" || r.Simulated ||
				r.Type != tc.typ || r.Value != tc.value || !slices.Contains(r.Tags, tc.tag) {
				t.Fatalf("reputation = %+v", r)
			}
		})
	}
	if _, err := c.Lookup(context.Background(), "email", "a@b.example"); !errors.Is(err, intel.ErrUnsupportedType) {
		t.Fatalf("unsupported type: %v", err)
	}
}

func TestEveryCallWaitsForTheSharedQuota(t *testing.T) {
	p := newPeer(t)
	var asked []string
	limit := func(_ context.Context, key string, perMinute int) error {
		asked = append(asked, key)
		if perMinute != 4 {
			t.Errorf("perMinute = %d, want the public tier's 4", perMinute)
		}
		return nil
	}
	c := connect(t, p, goodKey, limit)
	for _, d := range []string{"a.example", "b.example"} {
		if _, err := c.Lookup(context.Background(), triage.IndicatorDomain, d); err != nil {
			t.Fatal(err)
		}
	}
	if len(asked) != 2 || asked[0] != "virustotal" {
		t.Fatalf("limiter asked %v", asked)
	}
	refusing := connect(t, p, goodKey, func(context.Context, string, int) error { return context.DeadlineExceeded })
	before := p.calls
	if _, err := refusing.Lookup(context.Background(), triage.IndicatorDomain, "c.example"); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("err = %v", err)
	}
	if p.calls != before {
		t.Fatal("called VirusTotal although the quota wait failed")
	}
}

func TestQuotaExceededIsRetryableAndNotRepeated(t *testing.T) {
	p := newPeer(t)
	p.quotaLeft = 0
	c := connect(t, p, goodKey, nil)
	_, err := c.Lookup(context.Background(), triage.IndicatorIP, "198.51.100.7")
	var ve *vendorhttp.Error
	if !errors.As(err, &ve) || !errors.Is(err, vendorhttp.ErrRateLimited) || errors.Is(err, connectors.ErrPermanent) {
		t.Fatalf("err = %v", err)
	}
	if ve.RetryAfter != time.Minute || !strings.Contains(err.Error(), "Quota exceeded") || p.calls != 1 {
		t.Fatalf("retry after %s, %d calls, err %v", ve.RetryAfter, p.calls, err)
	}
}

func TestWrongKeyIsAuthAndNeverEchoed(t *testing.T) {
	p := newPeer(t)
	c := connect(t, p, "vt-wrong-key", nil)
	err := c.Test(context.Background())
	if !errors.Is(err, vendorhttp.ErrAuth) || !errors.Is(err, connectors.ErrPermanent) || strings.Contains(err.Error(), "vt-wrong-key") {
		t.Fatalf("err = %v", err)
	}
	if p.calls != 1 {
		t.Fatalf("%d calls", p.calls)
	}
}

func TestForbiddenIsPermission(t *testing.T) {
	p := newPeer(t)
	c := connect(t, p, limitedKey, nil)
	_, err := c.Lookup(context.Background(), triage.IndicatorHash, "44d88612fea8a8f36de82e1278abb02f")
	if !errors.Is(err, vendorhttp.ErrPermission) || !errors.Is(err, connectors.ErrPermanent) {
		t.Fatalf("err = %v", err)
	}
}

func TestTestPassesWithAGoodKey(t *testing.T) {
	p := newPeer(t)
	p.objects["/domains/example.com"] = stats(0, 0, 70, 20)
	if err := connect(t, p, goodKey, nil).Test(context.Background()); err != nil {
		t.Fatal(err)
	}
}
