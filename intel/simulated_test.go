package intel

import (
	"context"
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/vigil-soc/vigil/triage"
)

func TestTTL(t *testing.T) {
	for typ, want := range map[string]time.Duration{
		triage.IndicatorHash:   24 * time.Hour,
		triage.IndicatorURL:    time.Hour,
		triage.IndicatorDomain: 6 * time.Hour,
		triage.IndicatorIP:     6 * time.Hour,
		"email":                0,
		"":                     0,
	} {
		if got := TTL(typ); got != want {
			t.Errorf("TTL(%q) = %s, want %s", typ, got, want)
		}
	}
}

func TestSimulatedVerdicts(t *testing.T) {
	tests := []struct {
		typ, value string
		verdict    string
		minScore   int
		maxScore   int
		tag        string // empty: not checked
	}{
		// Hashes.
		{"hash", "44d88612fea8a8f36de82e1278abb02f", "malicious", 100, 100, "eicar-test-file"},
		{"hash", "3395856CE81F2B7382DEE72602F798B642F14140", "malicious", 100, 100, "eicar-test-file"},
		{"hash", "275a021bbfb6489e54d471899f7db9d1663fc695ec2fe2a2c4538aabf651fd0f", "malicious", 100, 100, "eicar-test-file"},
		{"hash", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855", "clean", 0, 0, "empty-file"},
		{"hash", "0123456789abcdef0123456789abcdef", "unknown", 0, 24, ""},
		{"hash", "not-a-hash", "unknown", 0, 0, "invalid-indicator"},
		// IP addresses.
		{"ip", "10.1.2.3", "clean", 0, 0, "non-routable"},
		{"ip", "192.168.0.1", "clean", 0, 0, "non-routable"},
		{"ip", "127.0.0.1", "clean", 0, 0, "non-routable"},
		{"ip", "100.64.1.1", "clean", 0, 0, "non-routable"},
		{"ip", "fd00::1", "clean", 0, 0, "non-routable"},
		{"ip", "192.0.2.10", "unknown", 0, 0, "documentation-range"},
		{"ip", "198.51.100.7", "unknown", 0, 0, "documentation-range"},
		{"ip", "203.0.113.9", "unknown", 0, 0, "documentation-range"},
		{"ip", "2001:db8::1", "unknown", 0, 0, "documentation-range"},
		{"ip", "8.8.8.8", "unknown", 0, 24, ""},
		// Domains.
		{"domain", "microsoft.com", "clean", 0, 0, "well-known"},
		{"domain", "login.microsoftonline.com", "clean", 0, 0, "well-known"},
		{"domain", "github.com", "clean", 0, 0, "well-known"},
		{"domain", "micros0ft-support.com", "malicious", 90, 90, "character-substitution"},
		{"domain", "paypa1.com", "malicious", 90, 90, "brand:paypal"},
		{"domain", "dh1-express.com", "malicious", 90, 90, "brand:dhl"},
		{"domain", "rnicrosoft.com", "malicious", 90, 90, "brand:microsoft"},
		{"domain", "microsoft-login.com", "malicious", 85, 85, "brand-with-lure-word"},
		{"domain", "paypalsecure.net", "malicious", 85, 85, "brand:paypal"},
		{"domain", "secure-docusign.net.example-cdn.ru", "malicious", 85, 85, "brand:docusign"},
		{"domain", "paypal.com.account-review.info", "malicious", 85, 85, "brand:paypal"},
		{"domain", "apple-verify.com", "malicious", 85, 85, "brand:apple"},
		{"domain", "microsoft-news-today.com", "suspicious", 55, 55, "brand-in-unrelated-domain"},
		{"domain", "bit.ly", "suspicious", 50, 50, "url-shortener"},
		{"domain", "goo.gl", "suspicious", 50, 50, "url-shortener"},
		{"domain", "free-prizes.top", "suspicious", 40, 40, "high-abuse-tld"},
		{"domain", "evil.example", "unknown", 0, 0, "reserved-domain"},
		{"domain", "corp.example.com", "unknown", 0, 0, "reserved-domain"},
		{"domain", "amazon.de", "unknown", 0, 24, ""},
		// The public suffix list, not a short hand-written one, finds the
		// registrable domain: paypal.com.ar is PayPal's own name there.
		{"domain", "paypal.com.ar", "unknown", 0, 24, ""},
		// Microsoft's own SharePoint sending domain is not a look-alike,
		// but a tenant on a customer-content host is nobody's brand.
		{"domain", "sharepointonline.com", "clean", 0, 0, "well-known"},
		{"domain", "fabrikam.sharepoint.com", "unknown", 0, 24, ""},
		{"domain", "microsoft-login.sharepoint.com", "malicious", 85, 85, "brand-with-lure-word"},
		{"domain", "exports.s3.amazonaws.com", "unknown", 0, 24, ""},
		{"domain", "apple-orchard.com", "unknown", 0, 24, ""}, // everyday word without a lure
		{"domain", "learnmore.com", "unknown", 0, 24, ""},
		{"domain", "login.contoso.com", "unknown", 0, 24, ""},
		// URLs.
		{"url", "https://micros0ft-support.com/login/verify?user=jane", "malicious", 95, 95, "credential-path"},
		{"url", "https://microsoft-login.com/", "malicious", 85, 85, "brand-with-lure-word"},
		{"url", "http://198.51.100.9/x.exe", "malicious", 80, 80, "executable-download"},
		{"url", "http://203.0.113.5/admin", "suspicious", 60, 60, "raw-ip-url"},
		{"url", "http://[2001:db8::1]/", "suspicious", 60, 60, "raw-ip-url"},
		{"url", "https://bit.ly/3xYz", "suspicious", 50, 50, "url-shortener"},
		{"url", "https://files.contoso-cdn.net/setup.exe", "suspicious", 55, 55, "executable-download"},
		{"url", "https://github.com/org/repo/releases/tool.exe", "clean", 0, 0, "well-known"},
		{"url", "https://www.contoso.com/about", "unknown", 0, 24, ""},
	}
	src := NewSimulated()
	if src.Name() != "simulated-intel" || !src.Simulated() {
		t.Fatalf("simulated source identity: %q %v", src.Name(), src.Simulated())
	}
	for _, tc := range tests {
		t.Run(tc.typ+" "+tc.value, func(t *testing.T) {
			r, err := src.Lookup(context.Background(), tc.typ, tc.value)
			if err != nil {
				t.Fatal(err)
			}
			if r.Verdict != tc.verdict || r.Score < tc.minScore || r.Score > tc.maxScore {
				t.Errorf("got %s %d %v, want %s within [%d, %d]", r.Verdict, r.Score, r.Tags, tc.verdict, tc.minScore, tc.maxScore)
			}
			if tc.tag != "" && !contains(r.Tags, tc.tag) {
				t.Errorf("tags %v lack %q", r.Tags, tc.tag)
			}
			if r.Type != tc.typ || r.Value != tc.value || r.Source != "simulated-intel" || !r.Simulated || r.CheckedAt.IsZero() {
				t.Errorf("labels wrong: %+v", r)
			}
			again, _ := src.Lookup(context.Background(), tc.typ, tc.value)
			again.CheckedAt = r.CheckedAt
			if !reflect.DeepEqual(r, again) {
				t.Errorf("not deterministic:\n%+v\n%+v", r, again)
			}
		})
	}
}

func TestSimulatedErrors(t *testing.T) {
	src := NewSimulated()
	if _, err := src.Lookup(context.Background(), "email", "a@b.example"); !errors.Is(err, ErrUnsupportedType) {
		t.Errorf("email lookup: %v, want ErrUnsupportedType", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := src.Lookup(ctx, "domain", "a.example"); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled lookup: %v", err)
	}
	// Unknown scores differ between values but stay low.
	scores := map[int]bool{}
	for _, d := range []string{"a.com", "b.com", "c.com", "d.com", "e.com", "f.com", "g.com", "h.com"} {
		r, _ := src.Lookup(context.Background(), "domain", d)
		if r.Score > 24 {
			t.Errorf("%s scored %d", d, r.Score)
		}
		scores[r.Score] = true
	}
	if len(scores) < 3 {
		t.Errorf("unknown scores hardly vary: %v", scores)
	}
}

func TestNormalize(t *testing.T) {
	for _, tc := range []struct {
		typ, in, want string
		ok            bool
	}{
		{"hash", " 44D88612FEA8A8F36DE82E1278ABB02F ", "44d88612fea8a8f36de82e1278abb02f", true},
		{"hash", "44d88612fea8a8f36de82e1278abb02", "", false},
		{"hash", "zzd88612fea8a8f36de82e1278abb02f", "", false},
		{"domain", "Evil.Example.", "evil.example", true},
		{"domain", "a b.example", "", false},
		{"ip", "::ffff:203.0.113.9", "203.0.113.9", true},
		{"ip", "fe80::1%eth0", "fe80::1", true},
		{"ip", "999.1.1.1", "", false},
		{"url", "https://a.example/x?y=1", "https://a.example/x?y=1", true},
		{"url", "ftp://a.example/x", "", false},
		{"url", "https://a.example/" + strings.Repeat("x", 3000), "", false},
		{"email", "a@b.example", "", false},
	} {
		got, ok := normalize(tc.typ, tc.in)
		if got != tc.want || ok != tc.ok {
			t.Errorf("normalize(%s, %q) = %q, %v; want %q, %v", tc.typ, tc.in, got, ok, tc.want, tc.ok)
		}
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
