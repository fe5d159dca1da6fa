package intake

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

func readSample(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// checkAlert asserts the invariants every accepted alert must satisfy,
// whatever the input.
func checkAlert(t testing.TB, a Alert) {
	t.Helper()
	switch a.Severity {
	case "low", "medium", "high", "critical":
	default:
		t.Errorf("Severity = %q", a.Severity)
	}
	if a.Title == "" || len([]rune(a.Title)) > maxTitleRunes {
		t.Errorf("Title = %q (%d runes)", a.Title, len([]rune(a.Title)))
	}
	if a.RawData == nil {
		t.Error("RawData is nil")
	}
	if !a.OccurredAt.IsZero() && (a.OccurredAt.Year() < 2000 || a.OccurredAt.Year() > 2100 || a.OccurredAt.Location() != time.UTC) {
		t.Errorf("OccurredAt = %v", a.OccurredAt)
	}
	if a.IncidentType == "" || a.IncidentType != strings.ToLower(a.IncidentType) {
		t.Errorf("IncidentType = %q", a.IncidentType)
	}
	if len([]rune(a.AlertID)) > maxAlertIDRunes || len([]rune(a.Description)) > maxDescriptionRunes {
		t.Errorf("AlertID or Description over cap: %d, %d runes", len([]rune(a.AlertID)), len([]rune(a.Description)))
	}
	if a.Source == "" {
		t.Error("Source is empty")
	}
}

// compareAlert checks got against want, and RawData against a plain decode
// of body.
func compareAlert(t *testing.T, body []byte, got, want Alert) {
	t.Helper()
	checkAlert(t, got)
	var raw map[string]any
	if err := json.Unmarshal(body, &raw); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got.RawData, raw) {
		t.Errorf("RawData differs from the decoded body")
	}
	got.RawData = nil
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got\n%+v\nwant\n%+v", got, want)
	}
}

func utc(s string) time.Time {
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		panic(err)
	}
	return t.UTC()
}

func TestParse(t *testing.T) {
	tests := []struct {
		name string
		body []byte
		want Alert
	}{
		{
			name: "generic sample",
			body: readSample(t, "generic.json"),
			want: Alert{
				Format: FormatGeneric, AlertID: "GW-2025-0314-00042",
				Title:        `User reported phishing: "Your mailbox is full"`,
				IncidentType: "phishing", SeverityRaw: "High", Severity: "high",
				Source: "mail-gateway-01", OccurredAt: utc("2025-03-14T09:26:53Z"),
				Description: "alice.jones@contoso.com reported a message from it-helpdesk@mailbox-notices.net asking to expand storage at https://mailbox-notices.net/storage/expand",
			},
		},
		{
			name: "generic exact spec shape with numbers",
			body: []byte(`{"event_type": "malware_detected", "timestamp": 1741944000, "source": "edr", "data": {"alert_id": 1234567890123, "severity": 3, "details": {}}}`),
			want: Alert{
				Format: FormatGeneric, AlertID: "1234567890123", Title: "Malware detected",
				IncidentType: "malware", SeverityRaw: "3", Severity: "high",
				Source: "edr", OccurredAt: utc("2025-03-14T09:20:00Z"),
			},
		},
		{
			name: "generic type from details, source from registration",
			body: []byte(`{"event_type": "dlp_violation", "timestamp": "2025-03-14T10:00:00+02:00", "data": {"severity": "warning", "details": {"incident_type": "Data_Exfiltration", "title": "Upload of 2 GB to personal cloud storage"}}}`),
			want: Alert{
				Format: FormatGeneric, Title: "Upload of 2 GB to personal cloud storage",
				IncidentType: "data exfiltration", SeverityRaw: "warning", Severity: "medium",
				Source: "registered-src", OccurredAt: utc("2025-03-14T08:00:00Z"),
			},
		},
		{
			name: "generic login keyword",
			body: []byte(`{"event_type": "AUTH_FAILURE_BURST", "timestamp": "2025-03-14T09:00:00Z", "source": "vpn", "data": {"alert_id": "v-1", "severity": "Severe"}}`),
			want: Alert{
				Format: FormatGeneric, AlertID: "v-1", Title: "AUTH FAILURE BURST",
				IncidentType: "suspicious login", SeverityRaw: "Severe", Severity: "high",
				Source: "vpn", OccurredAt: utc("2025-03-14T09:00:00Z"),
			},
		},
		{
			name: "generic unknown event type becomes the type",
			body: []byte(`{"event_type": "DNS_Tunnel_Detected", "timestamp": 0, "source": "ndr", "data": {"severity": "P2", "details": {"title": "  "}}}`),
			want: Alert{
				Format: FormatGeneric, Title: "DNS Tunnel Detected",
				IncidentType: "dns tunnel detected", SeverityRaw: "P2", Severity: "medium",
				Source: "ndr",
			},
		},
		{
			name: "email security sample",
			body: readSample(t, "email_security.json"),
			want: Alert{
				Format: FormatEmailSecurity, AlertID: "da637843791234567890_-1234567890",
				Title:        "Phishing email from security@micros0ft-support.com: Action required: unusual sign-in activity",
				IncidentType: "phishing", SeverityRaw: "Medium", Severity: "medium",
				Source: "registered-src", OccurredAt: utc("2025-03-14T09:31:07.1234567Z"),
				Description: "Category: Phish.\nRecipients: alice.jones@contoso.com, bob.smith@contoso.com.",
			},
		},
		{
			name: "email security malicious attachment",
			body: []byte(`{"eventType": "ThreatDetected", "id": "m-42", "creationTime": "2025-03-14T09:31:07Z", "severity": "high", "category": "Malicious attachment", "entityType": "EmailMessage",
				"data": {"sender": "accounts@vendor-billing.io", "subject": "", "recipients": []}}`),
			want: Alert{
				Format: FormatEmailSecurity, AlertID: "m-42",
				Title:        "Malware email from accounts@vendor-billing.io",
				IncidentType: "malware", SeverityRaw: "high", Severity: "high",
				Source: "registered-src", OccurredAt: utc("2025-03-14T09:31:07Z"),
				Description: "Category: Malicious attachment.",
			},
		},
		{
			name: "endpoint sample",
			body: readSample(t, "endpoint.json"),
			want: Alert{
				Format: FormatEndpoint, AlertID: "ldt:4f2a9c1e7b6d48a3b2c1d0e9f8a7b6c5:3892011245",
				Title:        "CredentialDumping on WS-FIN-042",
				IncidentType: "malware", SeverityRaw: "4", Severity: "critical",
				Source: "registered-src", OccurredAt: utc("2025-03-14T09:28:50.123Z"),
				Description: "A process attempted to read credential material from LSASS memory.",
			},
		},
		{
			name: "endpoint exact spec shape, score severity, ComputerName",
			body: []byte(`{"metadata": {"eventType": "DetectionSummaryEvent", "eventCreationTime": 1741944530000}, "event": {"DetectId": "ldt:1", "Severity": 85, "ComputerName": "srv-db-01", "DetectName": "Ransomware"}}`),
			want: Alert{
				Format: FormatEndpoint, AlertID: "ldt:1", Title: "Ransomware on srv-db-01",
				IncidentType: "malware", SeverityRaw: "85", Severity: "critical",
				Source: "registered-src", OccurredAt: utc("2025-03-14T09:28:50Z"),
			},
		},
		{
			name: "endpoint time in seconds by mistake is dropped",
			body: []byte(`{"metadata": {"eventType": "DetectionSummaryEvent", "eventCreationTime": 1741944530}, "event": {"DetectId": "ldt:2", "Severity": 2, "HostnameField": "", "DetectName": "SuspiciousScript"}}`),
			want: Alert{
				Format: FormatEndpoint, AlertID: "ldt:2", Title: "SuspiciousScript",
				IncidentType: "malware", SeverityRaw: "2", Severity: "medium", Source: "registered-src",
			},
		},
		{
			name: "log search sample",
			body: readSample(t, "log_search.json"),
			want: Alert{
				Format: FormatLogSearch, AlertID: "scheduler__admin__search__RMD5e4b1a7c3f2d9_at_1741944600_2391/412:88123456",
				Title:        "Brute Force Against Domain Accounts on DC01.corp.contoso.com",
				IncidentType: "suspicious login", Severity: "medium",
				Source: "registered-src", OccurredAt: utc("2025-03-14T09:30:12Z"),
				Description: "03/14/2025 09:30:01 AM\nLogName=Security\nEventCode=4625\nMessage=An account failed to log on.\nAccount Name: administrator\nSource Network Address: 198.51.100.23",
			},
		},
		{
			name: "log search exact spec shape, numeric event code, _cd id",
			body: []byte(`{"result": {"host": "web-03", "source": "/var/log/auth.log", "sourcetype": "linux_secure", "_raw": "Failed password for root", "EventCode": 4771, "_cd": "7:123"}, "search_name": "Kerberos pre-auth failures", "trigger_time": "1741944612"}`),
			want: Alert{
				Format: FormatLogSearch, AlertID: "7:123", Title: "Kerberos pre-auth failures on web-03",
				IncidentType: "suspicious login", Severity: "medium",
				Source: "registered-src", OccurredAt: utc("2025-03-14T09:30:12Z"),
				Description: "Failed password for root",
			},
		},
		{
			name: "log search malware by name, urgency as severity, no id",
			body: []byte(`{"result": {"host": "ws-7", "EventCode": "1116", "urgency": "critical"}, "search_name": "Defender virus detections", "trigger_time": 1741944612}`),
			want: Alert{
				Format: FormatLogSearch, Title: "Defender virus detections on ws-7",
				IncidentType: "malware", SeverityRaw: "critical", Severity: "critical",
				Source: "registered-src", OccurredAt: utc("2025-03-14T09:30:12Z"),
			},
		},
		{
			name: "log search without keywords",
			body: []byte(`{"result": {}, "search_name": "Outbound traffic to rare domains", "trigger_time": 1741944612, "severity": 5}`),
			want: Alert{
				Format: FormatLogSearch, Title: "Outbound traffic to rare domains",
				IncidentType: "alert", SeverityRaw: "5", Severity: "critical",
				Source: "registered-src", OccurredAt: utc("2025-03-14T09:30:12Z"),
			},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Parse(tc.body, "registered-src", nil)
			if err != nil {
				t.Fatalf("Parse: %v", err)
			}
			compareAlert(t, tc.body, got, tc.want)
		})
	}
}

func TestParseSanitises(t *testing.T) {
	long := strings.Repeat("é", 300)
	tests := []struct {
		name  string
		body  string
		check func(t *testing.T, a Alert)
	}{
		{
			name: "long title is cut to 200 runes with an ellipsis",
			body: `{"event_type": "x", "timestamp": 1741944000, "data": {"severity": "low", "details": {"title": "` + long + `"}}}`,
			check: func(t *testing.T, a Alert) {
				if want := strings.Repeat("é", 199) + "…"; a.Title != want {
					t.Errorf("Title = %q", a.Title)
				}
			},
		},
		{
			name: "control and bidi characters leave the title",
			body: `{"event_type": "x", "timestamp": 1741944000, "data": {"severity": "low", "details": {"title": "invoice\u202Efdp.exe\n\nFAKE: all clear\u0000"}}}`,
			check: func(t *testing.T, a Alert) {
				if a.Title != "invoice fdp.exe FAKE: all clear" {
					t.Errorf("Title = %q", a.Title)
				}
			},
		},
		{
			name: "over-long alert id is not used for deduplication",
			body: `{"event_type": "x", "timestamp": 1741944000, "data": {"severity": "low", "alert_id": "` + strings.Repeat("a", 201) + `"}}`,
			check: func(t *testing.T, a Alert) {
				if a.AlertID != "" {
					t.Errorf("AlertID = %q", a.AlertID)
				}
			},
		},
		{
			name: "alert id of 200 characters is kept, trimmed",
			body: `{"event_type": "x", "timestamp": 1741944000, "data": {"severity": "low", "alert_id": "  ` + strings.Repeat("a", 200) + ` "}}`,
			check: func(t *testing.T, a Alert) {
				if a.AlertID != strings.Repeat("a", 200) {
					t.Errorf("AlertID = %q", a.AlertID)
				}
			},
		},
		{
			name: "long description is capped",
			body: `{"event_type": "x", "timestamp": 1741944000, "data": {"severity": "low", "details": {"description": "` + strings.Repeat(`ab\n`, 1000) + `"}}}`,
			check: func(t *testing.T, a Alert) {
				if n := len([]rune(a.Description)); n != maxDescriptionRunes || !strings.HasSuffix(a.Description, "…") {
					t.Errorf("Description has %d runes", n)
				}
			},
		},
		{
			name: "timestamp before 2000 is dropped",
			body: `{"event_type": "x", "timestamp": "1999-12-31T23:59:59Z", "data": {"severity": "low"}}`,
			check: func(t *testing.T, a Alert) {
				if !a.OccurredAt.IsZero() {
					t.Errorf("OccurredAt = %v", a.OccurredAt)
				}
			},
		},
		{
			name: "timestamp in 2100 is kept",
			body: `{"event_type": "x", "timestamp": "2100-12-31T23:59:59Z", "data": {"severity": "low"}}`,
			check: func(t *testing.T, a Alert) {
				if !a.OccurredAt.Equal(utc("2100-12-31T23:59:59Z")) {
					t.Errorf("OccurredAt = %v", a.OccurredAt)
				}
			},
		},
		{
			name: "huge unix timestamp is dropped",
			body: `{"event_type": "x", "timestamp": 1e300, "data": {"severity": "low"}}`,
			check: func(t *testing.T, a Alert) {
				if !a.OccurredAt.IsZero() {
					t.Errorf("OccurredAt = %v", a.OccurredAt)
				}
			},
		},
		{
			name: "nesting of exactly 64 levels is accepted",
			body: `{"event_type": "x", "timestamp": 1, "data": {"severity": "low", "details": {"a": ` + strings.Repeat("[", 61) + strings.Repeat("]", 61) + `}}}`,
			check: func(t *testing.T, a Alert) {
				if a.Title != "X" {
					t.Errorf("Title = %q", a.Title)
				}
			},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			a, err := Parse([]byte(tc.body), "src", nil)
			if err != nil {
				t.Fatalf("Parse: %v", err)
			}
			checkAlert(t, a)
			tc.check(t, a)
		})
	}
}
