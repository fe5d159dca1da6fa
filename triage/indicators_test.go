package triage

import (
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// mustJSON decodes a payload the way the API layer does, so tests exercise
// the same map[string]any / []any / float64 shapes seen in production.
func mustJSON(t testing.TB, s string) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal([]byte(s), &m); err != nil {
		t.Fatalf("bad test payload: %v", err)
	}
	return m
}

func TestExtractIndicators(t *testing.T) {
	tests := []struct {
		name    string
		payload string
		want    Indicators
	}{
		{
			name: "email security suite message",
			payload: `{
				"message_id": "<CAF7x@mail.micros0ft-support.com>",
				"sender": "Microsoft Security <Security@Micros0ft-Support.com>",
				"recipients": ["Alice.Jones@contoso.com", "bob@contoso.com"],
				"subject": "Urgent: verify your account",
				"urls": ["https://micros0ft-support.com/login/verify?user=alice.jones@contoso.com"],
				"headers": {"Received": "from mail.micros0ft-support.com ([203.0.113.45]) by mx.contoso.com", "X-Originating-IP": "[203.0.113.45]"},
				"attachments": [{"filename": "invoice.pdf", "sha256": "E3B0C44298FC1C149AFBF4C8996FB92427AE41E4649B934CA495991B7852B855"}]
			}`,
			want: Indicators{
				URLs:    []string{"https://micros0ft-support.com/login/verify?user=alice.jones@contoso.com"},
				Domains: []string{"contoso.com", "mail.micros0ft-support.com", "micros0ft-support.com", "mx.contoso.com"},
				IPs:     []string{"203.0.113.45"},
				Hashes:  []string{"e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"},
				Emails:  []string{"alice.jones@contoso.com", "bob@contoso.com", "security@micros0ft-support.com"},
			},
		},
		{
			name:    "urls with trailing punctuation",
			payload: `{"body": "Click (https://evil.example/pay). Or https://evil.example/a?b=c, then \"https://evil.example/q\"; see <https://evil.example/x>! Also https://en.wikipedia.org/wiki/Phishing_(disambiguation)."}`,
			want: Indicators{
				URLs: []string{
					"https://en.wikipedia.org/wiki/Phishing_(disambiguation)",
					"https://evil.example/a?b=c",
					"https://evil.example/pay",
					"https://evil.example/q",
					"https://evil.example/x",
				},
				Domains: []string{"en.wikipedia.org", "evil.example"},
			},
		},
		{
			name:    "userinfo trick and html entities",
			payload: `{"html": "go to https://paypal.com@evil.example/login&quot; now"}`,
			want: Indicators{
				URLs:    []string{"https://paypal.com@evil.example/login"},
				Domains: []string{"evil.example"},
			},
		},
		{
			name: "dotted type names are not domains",
			payload: `{"@odata.type": "#microsoft.graph.security.alert", "source": "aws.guardduty",
				"xattr": "com.apple.quarantine", "sender": "billing.contoso.com", "host": "fs01.corp.internal"}`,
			want: Indicators{Domains: []string{"billing.contoso.com", "fs01.corp.internal"}},
		},
		{
			name:    "scheme and host lowercased, path case kept",
			payload: `{"link": "HTTPS://Login.Example.COM/Reset/AbC"}`,
			want: Indicators{
				URLs:    []string{"https://login.example.com/Reset/AbC"},
				Domains: []string{"login.example.com"},
			},
		},
		{
			name:    "bare domains versus file names",
			payload: `{"body": "Please sign in at login-micros0ft.com and open invoice.pdf, report.docx, payload.exe, script.ps1 and archive.tar.gz. Contact first.last@partner.co.uk."}`,
			want: Indicators{
				Domains: []string{"login-micros0ft.com", "partner.co.uk"},
				Emails:  []string{"first.last@partner.co.uk"},
			},
		},
		{
			name:    "non-LDH host keeps the URL but yields no domain",
			payload: `{"url": "http://bad_host.example.com/x", "note": "my_var.field"}`,
			want:    Indicators{URLs: []string{"http://bad_host.example.com/x"}},
		},
		{
			name:    "code identifiers are not domains",
			payload: `{"CommandLine": "powershell -c [System.Net.WebClient]::new(); os.path.join(a) $env.TEMP"}`,
			want:    Indicators{},
		},
		{
			name:    "invalid IPs and version strings",
			payload: `{"notes": "bad 999.1.1.1 and 1.2.3 and 10.0.0.256, agent v1.2.3.4, build 1.2.3.4.5, UA Chrome/120.0.0.0, good 198.51.100.7:443 and ip:192.0.2.10."}`,
			want:    Indicators{IPs: []string{"192.0.2.10", "198.51.100.7"}},
		},
		{
			name:    "IPv6 forms",
			payload: `{"src": "2001:DB8::1", "seen": ["[2001:db8:0:0:0:0:0:2]:8443", "fe80::1%eth0", "::ffff:192.0.2.1"], "mac": "00:1a:2b:3c:4d:5e", "time": "12:30:45", "code": "Foo::Bar"}`,
			want:    Indicators{IPs: []string{"192.0.2.1", "2001:db8::1", "2001:db8::2", "fe80::1"}},
		},
		{
			name: "hashes of all three lengths and near misses",
			payload: `{
				"md5": "44D88612FEA8A8F36DE82E1278ABB02F",
				"sha1": "3395856ce81f2b7382dee72602f798b642f14140",
				"SHA256": "275a021bbfb6489e54d471899f7db9d1663fc695ec2fe2a2c4538aabf651fd0f",
				"not_hash_33": "44d88612fea8a8f36de82e1278abb02f0",
				"not_hash_31": "44d88612fea8a8f36de82e1278abb02",
				"order_number": "12345678901234567890123456789012"
			}`,
			want: Indicators{Hashes: []string{
				"275a021bbfb6489e54d471899f7db9d1663fc695ec2fe2a2c4538aabf651fd0f",
				"3395856ce81f2b7382dee72602f798b642f14140",
				"44d88612fea8a8f36de82e1278abb02f",
			}},
		},
		{
			name:    "emails lowercased and deduplicated",
			payload: `{"from": "CEO <CEO@Contoso.COM>", "to": ["ceo@contoso.com", "mailto:Finance@Contoso.com"]}`,
			want: Indicators{
				Domains: []string{"contoso.com"},
				Emails:  []string{"ceo@contoso.com", "finance@contoso.com"},
			},
		},
		{
			name:    "nested arrays and maps",
			payload: `{"data": {"events": [[{"process": {"network": [{"remote_ip": "198.51.100.20"}, {"remote_ip": "198.51.100.20"}]}}], ["cdn.badhost.net"]]}}`,
			want: Indicators{
				Domains: []string{"cdn.badhost.net"},
				IPs:     []string{"198.51.100.20"},
			},
		},
		{
			name:    "key hints accept values free text would not",
			payload: `{"sender_domain": "evil.zip", "dst_ip": "fe80::2%25", "file_hash": "12345678901234567890123456789012"}`,
			want: Indicators{
				Domains: []string{"evil.zip"},
				IPs:     []string{"fe80::2"},
				Hashes:  []string{"12345678901234567890123456789012"},
			},
		},
		{
			name:    "safe links destination is unwrapped",
			payload: `{"url": "https://nam02.safelinks.protection.outlook.com/?url=https%3A%2F%2Fpaypa1-secure.com%2Fsignin&data=05"}`,
			want: Indicators{
				URLs:    []string{"https://nam02.safelinks.protection.outlook.com/?url=https%3A%2F%2Fpaypa1-secure.com%2Fsignin&data=05", "https://paypa1-secure.com/signin"},
				Domains: []string{"nam02.safelinks.protection.outlook.com", "paypa1-secure.com"},
			},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := ExtractIndicators(mustJSON(t, tc.payload))
			want := withEmptyLists(tc.want)
			if !reflect.DeepEqual(got, want) {
				t.Errorf("ExtractIndicators mismatch\n got: %s\nwant: %s", dump(got), dump(want))
			}
		})
	}
}

func withEmptyLists(ind Indicators) Indicators {
	for _, p := range []*[]string{&ind.URLs, &ind.Domains, &ind.IPs, &ind.Hashes, &ind.Emails} {
		if *p == nil {
			*p = []string{}
		}
	}
	return ind
}

func dump(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

func TestExtractIndicatorsEmptyInput(t *testing.T) {
	for name, raw := range map[string]map[string]any{"nil": nil, "empty": {}, "no strings": {"count": 3.0, "ok": true, "nothing": nil}} {
		t.Run(name, func(t *testing.T) {
			got := ExtractIndicators(raw)
			for field, list := range indicatorLists(got) {
				if list == nil || len(list) != 0 {
					t.Errorf("%s = %#v, want empty non-nil slice", field, list)
				}
			}
			if b := dump(got); b != `{"urls":[],"domains":[],"ips":[],"hashes":[],"emails":[]}` {
				t.Errorf("JSON = %s", b)
			}
		})
	}
}

func indicatorLists(ind Indicators) map[string][]string {
	return map[string][]string{"urls": ind.URLs, "domains": ind.Domains, "ips": ind.IPs, "hashes": ind.Hashes, "emails": ind.Emails}
}

func TestExtractIndicatorsBounds(t *testing.T) {
	t.Run("10k distinct IPs capped at 500", func(t *testing.T) {
		ips := make([]any, 10000)
		for i := range ips {
			ips[i] = fmt.Sprintf("10.%d.%d.%d", i/65536, (i/256)%256, i%256)
		}
		got := ExtractIndicators(map[string]any{"connections": ips})
		if len(got.IPs) != maxIndicatorsPerList {
			t.Fatalf("len(IPs) = %d, want %d", len(got.IPs), maxIndicatorsPerList)
		}
		if !slices.IsSorted(got.IPs) {
			t.Error("IPs not sorted")
		}
	})
	t.Run("every list capped in one huge string", func(t *testing.T) {
		var b strings.Builder
		for i := 0; i < 2000; i++ {
			fmt.Fprintf(&b, "https://h%d.example.com/ u%d@corp%d.example.org 192.0.%d.%d %032x\n", i, i, i, i/256, i%256, i+1<<40)
		}
		got := ExtractIndicators(map[string]any{"blob": b.String()})
		for field, list := range indicatorLists(got) {
			if len(list) != maxIndicatorsPerList {
				t.Errorf("len(%s) = %d, want %d", field, len(list), maxIndicatorsPerList)
			}
		}
	})
	t.Run("deep nesting stops at the depth limit", func(t *testing.T) {
		deep := map[string]any{"ip": "192.0.2.99"}
		for i := 0; i < 100; i++ {
			deep = map[string]any{"n": deep}
		}
		deep["ip"] = "192.0.2.1"
		got := ExtractIndicators(deep)
		if !reflect.DeepEqual(got.IPs, []string{"192.0.2.1"}) {
			t.Errorf("IPs = %v, want only the shallow address", got.IPs)
		}
	})
	t.Run("deterministic under map iteration", func(t *testing.T) {
		raw := map[string]any{}
		for i := 0; i < 700; i++ {
			raw[fmt.Sprintf("k%03d", i)] = fmt.Sprintf("198.18.%d.%d", i/256, i%256)
		}
		first := ExtractIndicators(raw)
		for i := 0; i < 5; i++ {
			if again := ExtractIndicators(raw); !reflect.DeepEqual(first, again) {
				t.Fatal("capped extraction differs between runs")
			}
		}
	})
}

func FuzzExtractIndicators(f *testing.F) {
	for _, s := range []string{
		"",
		"Visit https://micros0ft-support.com/login?x=1). Mail security@micros0ft-support.com",
		"src 10.0.0.1:443 dst [2001:db8::1]:80 v1.2.3.4 999.1.1.1",
		"hash 44d88612fea8a8f36de82e1278abb02f invoice.pdf login-micros0ft.com",
		"http://[::1", "a@b.c@d.ee", "::::", "https://x.y/%zz", "\xff\xfe@\x00.com",
	} {
		f.Add(s, "sender_ip")
	}
	f.Fuzz(func(t *testing.T, s, key string) {
		raw := map[string]any{key: s, "nested": []any{map[string]any{"v": s}, s}}
		got := ExtractIndicators(raw)
		for field, list := range indicatorLists(got) {
			if list == nil {
				t.Fatalf("%s is nil", field)
			}
			if len(list) > maxIndicatorsPerList {
				t.Fatalf("%s has %d entries", field, len(list))
			}
			for i := 1; i < len(list); i++ {
				if list[i-1] >= list[i] {
					t.Fatalf("%s not strictly sorted: %q >= %q", field, list[i-1], list[i])
				}
			}
		}
		for _, e := range got.Emails {
			if e != strings.ToLower(e) {
				t.Fatalf("email %q not lowercased", e)
			}
		}
		for _, h := range got.Hashes {
			if !isHashLength(len(h)) || h != strings.ToLower(h) || !isHexString(h) {
				t.Fatalf("bad hash %q", h)
			}
		}
	})
}
