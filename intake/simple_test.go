package intake

import (
	"errors"
	"reflect"
	"testing"
)

func TestParseSimple(t *testing.T) {
	tests := []struct {
		name string
		body []byte
		want Alert
	}{
		{
			name: "sample with every optional field",
			body: readSample(t, "simple.json"),
			want: Alert{
				Format: FormatSimple, AlertID: "IDP-77812",
				Title:        "Impossible travel for bob.smith@contoso.com",
				IncidentType: "suspicious login", SeverityRaw: "critical", Severity: "critical",
				Source: "idp-monitor", OccurredAt: utc("2025-03-14T09:20:00Z"),
				Description: "Sign-ins from Amsterdam and Singapore 14 minutes apart.",
			},
		},
		{
			name: "title and severity only",
			body: []byte(`{"title": "Disk encryption disabled on LT-0042", "severity": "warning"}`),
			want: Alert{
				Format: FormatSimple, Title: "Disk encryption disabled on LT-0042",
				IncidentType: "alert", SeverityRaw: "warning", Severity: "medium", Source: "registered-src",
			},
		},
		{
			name: "type from title keywords, numeric severity, id and RFC 3339 time",
			body: []byte(`{"title": "Phishing site impersonating payroll", "severity": 2, "id": 991, "timestamp": "2025-03-14T09:20:00Z"}`),
			want: Alert{
				Format: FormatSimple, AlertID: "991", Title: "Phishing site impersonating payroll",
				IncidentType: "phishing", SeverityRaw: "2", Severity: "medium",
				Source: "registered-src", OccurredAt: utc("2025-03-14T09:20:00Z"),
			},
		},
		{
			name: "type field, alert_id preferred over id",
			body: []byte(`{"title": "Badge used after termination", "severity": "high", "type": "Insider Threat", "alert_id": "HR-1", "id": "other"}`),
			want: Alert{
				Format: FormatSimple, AlertID: "HR-1", Title: "Badge used after termination",
				IncidentType: "insider threat", SeverityRaw: "high", Severity: "high", Source: "registered-src",
			},
		},
		{
			name: "optional fields of other types are ignored",
			body: []byte(`{"title": "Odd sender", "severity": "low", "description": {"x": 1}, "source": ["a"], "type": {"k": "v"}, "timestamp": "last tuesday", "alert_id": false}`),
			want: Alert{
				Format: FormatSimple, Title: "Odd sender",
				IncidentType: "alert", SeverityRaw: "low", Severity: "low", Source: "registered-src",
			},
		},
		{
			name: "no title falls back to the four formats",
			body: readSample(t, "endpoint.json"),
			want: Alert{
				Format: FormatEndpoint, AlertID: "ldt:4f2a9c1e7b6d48a3b2c1d0e9f8a7b6c5:3892011245",
				Title:        "CredentialDumping on WS-FIN-042",
				IncidentType: "malware", SeverityRaw: "4", Severity: "critical",
				Source: "registered-src", OccurredAt: utc("2025-03-14T09:28:50.123Z"),
				Description: "A process attempted to read credential material from LSASS memory.",
			},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ParseSimple(tc.body, "registered-src", nil)
			if err != nil {
				t.Fatalf("ParseSimple: %v", err)
			}
			compareAlert(t, tc.body, got, tc.want)
		})
	}
}

func TestParseSimpleErrors(t *testing.T) {
	all := expectedFormats(true)
	simple := []string{simpleExpected}
	tests := []struct {
		name     string
		body     string
		msg      string
		expected []string
	}{
		{"not JSON", `<alert/>`, "request body is not JSON", all},
		{"not an object", `["title"]`, "request body is not a JSON object", all},
		{"no title and no format", `{"name": "x", "severity": "high"}`, "payload matches no known format", all},
		{"empty title", `{"title": "  ", "severity": "high"}`, "simple alert: title must be a non-empty string", simple},
		{"title number", `{"title": 5, "severity": "high"}`, "simple alert: title must be a string", simple},
		{"severity missing", `{"title": "x"}`, "simple alert: severity is required", simple},
		{"severity null", `{"title": "x", "severity": null}`, "simple alert: severity is required", simple},
		{"severity bool", `{"title": "x", "severity": true}`, "simple alert: severity must be a string or a number", simple},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ParseSimple([]byte(tc.body), "src", nil)
			var fe *FormatError
			if !errors.As(err, &fe) {
				t.Fatalf("err = %v, want *FormatError", err)
			}
			if fe.Message != tc.msg {
				t.Errorf("Message = %q, want %q", fe.Message, tc.msg)
			}
			if !reflect.DeepEqual(fe.Expected, tc.expected) {
				t.Errorf("Expected = %q, want %q", fe.Expected, tc.expected)
			}
		})
	}
}
