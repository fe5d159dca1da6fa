package triage

import (
	"fmt"
	"testing"
)

func TestRC4ServiceTicketsForManyAccountsFromOneClient(t *testing.T) {
	record := func(client, service, cipher string) any {
		return map[string]any{"id.orig_h": client, "request_type": "TGS", "service": service, "cipher": cipher}
	}
	many := func(client, cipher string, n int) []any {
		var out []any
		for i := 0; i < n; i++ {
			out = append(out, record(client, fmt.Sprintf("mssqlsvc/db%02d.corp.example", i), cipher))
		}
		return out
	}
	tests := []struct {
		name string
		logs []any
		want bool
	}{
		{"many services with rc4", many("10.0.0.5", "rc4-hmac", 6), true},
		{"many services with aes", many("10.0.0.5", "aes256-cts-hmac-sha1-96", 6), false},
		{"one legacy service", []any{record("10.0.0.5", "http/legacy", "rc4-hmac"), record("10.0.0.5", "http/legacy", "rc4-hmac")}, false},
		{"spread over clients", append(many("10.0.0.5", "rc4-hmac", 3), many("10.0.0.6", "rc4-hmac", 3)...), false},
		{"machine accounts", []any{record("10.0.0.5", "ws1$", "rc4-hmac"), record("10.0.0.5", "ws2$", "rc4-hmac"), record("10.0.0.5", "ws3$", "rc4-hmac"), record("10.0.0.5", "ws4$", "rc4-hmac"), record("10.0.0.5", "ws5$", "rc4-hmac")}, false},
	}
	for _, tt := range tests {
		f := normalize(Incident{IncidentType: "alert", RawData: map[string]any{"kerberos": tt.logs}}, Indicators{})
		if f.Network.Kerberoast != tt.want {
			t.Errorf("%s: %v, want %v", tt.name, f.Network.Kerberoast, tt.want)
		}
	}
	windows := []any{}
	for i := 0; i < 5; i++ {
		windows = append(windows, map[string]any{"EventID": 4769, "ServiceName": fmt.Sprintf("svc-%d", i), "TicketEncryptionType": "0x17", "IpAddress": "::ffff:10.1.1.1"})
	}
	// The records are read whatever the alert's family: they reach a
	// sign-in feed or an EDR's event log as well as a network sensor.
	for _, typ := range []string{"alert", "suspicious_login", "malware"} {
		if f := normalize(Incident{IncidentType: typ, RawData: map[string]any{"events": windows}}, Indicators{}); !f.Network.Kerberoast {
			t.Errorf("%s: Windows 4769 records with encryption type 0x17 are RC4 service tickets", typ)
		}
	}
}
