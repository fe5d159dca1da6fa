package triage

import (
	"maps"
	"testing"
)

func TestTheSessionsReasonsCarryToWhatItDidNext(t *testing.T) {
	at := 1762338000
	event := func(ip string, reasons ...any) map[string]any {
		at += 600
		return map[string]any{"action": "anomaly", "result": "SUCCESS", "date_create": at, "user": "a.b@example.com", "ip_address": ip, "reason": reasons}
	}
	tests := []struct {
		name      string
		events    []any
		tor, bulk bool
	}{
		{"same address", []any{event("198.51.100.7", "tor", "user_agent"), event("198.51.100.7", "excessive_downloads")}, true, true},
		{"another address", []any{event("203.0.113.9", "tor"), event("198.51.100.7", "excessive_downloads")}, false, true},
		{"nothing flagged", []any{event("198.51.100.7", "new_device"), event("198.51.100.7", "session_start")}, false, false},
	}
	for _, tt := range tests {
		f := normalize(Incident{IncidentType: "suspicious_login", RawData: map[string]any{"entries": tt.events}}, Indicators{})
		if f.Identity.Tor != tt.tor || f.Identity.BulkDownload != tt.bulk {
			t.Errorf("%s: tor %v bulk %v, want %v %v", tt.name, f.Identity.Tor, f.Identity.BulkDownload, tt.tor, tt.bulk)
		}
	}
}

func TestTheSessionsRiskAndWhatItGrantedCarryToTheChain(t *testing.T) {
	ev := func(typ, ip string, extra map[string]any) any {
		m := map[string]any{"eventType": typ, "actor": map[string]any{"alternateId": "a@example.com"},
			"client": map[string]any{"ipAddress": ip}, "outcome": map[string]any{"result": "SUCCESS"}}
		maps.Copy(m, extra)
		return m
	}
	risky := map[string]any{"debugContext": map[string]any{"debugData": map[string]any{"risk": "{level=HIGH, reasons=Anomalous Device}"}}}
	tests := []struct {
		name    string
		events  []any
		risk    string
		granted bool
	}{
		{"same session", []any{ev("user.session.start", "198.51.100.7", risky), ev("user.account.privilege.grant", "198.51.100.7", nil)}, "high", true},
		{"another address", []any{ev("user.session.start", "203.0.113.9", risky), ev("user.account.privilege.grant", "198.51.100.7", nil)}, "", true},
		{"nothing granted", []any{ev("user.session.start", "198.51.100.7", risky), ev("user.session.access_admin_app", "198.51.100.7", nil)}, "high", false},
	}
	for _, tt := range tests {
		f := normalize(Incident{IncidentType: "suspicious_login", RawData: map[string]any{"logs": tt.events}}, Indicators{})
		if f.Identity.RiskLevel != tt.risk || f.Identity.PrivilegeGrant != tt.granted {
			t.Errorf("%s: risk %q granted %v, want %q %v", tt.name, f.Identity.RiskLevel, f.Identity.PrivilegeGrant, tt.risk, tt.granted)
		}
	}
}
