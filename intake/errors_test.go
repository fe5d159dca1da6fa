package intake

import (
	"errors"
	"reflect"
	"strings"
	"testing"
)

func TestParseErrors(t *testing.T) {
	all := expectedFormats(false)
	only := func(name string) []string {
		for _, f := range formats {
			if f.name == name {
				return []string{f.expected}
			}
		}
		panic(name)
	}
	const (
		gen   = `"event_type": "malware_detected", "timestamp": 1741944000, "source": "edr"`
		email = `"eventType": "ThreatDetected", "id": "m-1", "creationTime": "2025-03-14T09:31:07Z", "severity": "high"`
		meta  = `"metadata": {"eventType": "DetectionSummaryEvent", "eventCreationTime": 1741944530000}`
	)
	tests := []struct {
		name     string
		body     string
		msg      string
		expected []string
	}{
		{"empty body", ``, "request body is not JSON", all},
		{"truncated", `{"event_type": "x"`, "request body is not JSON", all},
		{"form encoded", `title=x&severity=high`, "request body is not JSON", all},
		{"array", `[{"event_type": "x"}]`, "request body is not a JSON object", all},
		{"null", `null`, "request body is not a JSON object", all},
		{"string", `"alert"`, "request body is not a JSON object", all},
		{"number beyond float64", `{"event_type": "x", "timestamp": 1e400, "data": {"severity": "low"}}`, "request body holds a number out of range", all},
		{"empty object", `{}`, "payload matches no known format", all},
		{"unrelated object", `{"hello": "world", "data": {"severity": "high"}}`, "payload matches no known format", all},
		{"marker set to null", `{"event_type": null, "timestamp": 1, "data": {"severity": "high"}}`, "payload matches no known format", all},
		{"too deep", strings.Repeat("[", 65) + strings.Repeat("]", 65), "request body nests deeper than 64 levels", all},
		{"too deep inside a format", `{"event_type": "x", "timestamp": 1, "data": {"severity": "low", "details": {"a": ` + strings.Repeat("[", 62) + strings.Repeat("]", 62) + `}}}`, "request body nests deeper than 64 levels", all},

		{"generic event_type empty", `{"event_type": " ", "timestamp": 1, "data": {"severity": "high"}}`, "generic payload: event_type must be a non-empty string", only(FormatGeneric)},
		{"generic event_type only control characters", `{"event_type": "\u0000\n", "timestamp": 1, "data": {"severity": "high"}}`, "generic payload: event_type must be a non-empty string", only(FormatGeneric)},
		{"generic event_type number", `{"event_type": 7, "timestamp": 1, "data": {"severity": "high"}}`, "generic payload: event_type must be a string", only(FormatGeneric)},
		{"generic timestamp missing", `{"event_type": "x", "data": {"severity": "high"}}`, "generic payload: timestamp is required", only(FormatGeneric)},
		{"generic timestamp unparseable", `{"event_type": "x", "timestamp": "yesterday", "data": {"severity": "high"}}`, "generic payload: timestamp must be an RFC 3339 time or unix seconds", only(FormatGeneric)},
		{"generic timestamp bool", `{"event_type": "x", "timestamp": true, "data": {"severity": "high"}}`, "generic payload: timestamp must be an RFC 3339 time or unix seconds", only(FormatGeneric)},
		{"generic source object", `{` + gen + `, "source": {"name": "edr"}, "data": {"severity": "high"}}`, "generic payload: source must be a string", only(FormatGeneric)},
		{"generic data missing", `{` + gen + `}`, "generic payload: data is required", only(FormatGeneric)},
		{"generic data array", `{` + gen + `, "data": []}`, "generic payload: data must be an object", only(FormatGeneric)},
		{"generic severity missing", `{` + gen + `, "data": {"alert_id": "a"}}`, "generic payload: data.severity is required", only(FormatGeneric)},
		{"generic severity object", `{` + gen + `, "data": {"severity": {"level": 3}}}`, "generic payload: data.severity must be a string or a number", only(FormatGeneric)},
		{"generic alert_id bool", `{` + gen + `, "data": {"severity": "high", "alert_id": true}}`, "generic payload: data.alert_id must be a string or a number", only(FormatGeneric)},
		{"generic details string", `{` + gen + `, "data": {"severity": "high", "details": "n/a"}}`, "generic payload: data.details must be an object", only(FormatGeneric)},

		{"email id missing", `{"eventType": "ThreatDetected", "creationTime": "2025-03-14T09:31:07Z", "severity": "high", "data": {"sender": "a@b.c", "subject": "s"}}`, "email security payload: id is required", only(FormatEmailSecurity)},
		{"email creationTime missing", `{"eventType": "ThreatDetected", "id": "m-1", "severity": "high", "data": {"sender": "a@b.c", "subject": "s"}}`, "email security payload: creationTime is required", only(FormatEmailSecurity)},
		{"email creationTime unix", `{"eventType": "ThreatDetected", "id": "m-1", "creationTime": 1741944000, "severity": "high", "data": {"sender": "a@b.c", "subject": "s"}}`, "email security payload: creationTime must be a string", only(FormatEmailSecurity)},
		{"email creationTime not RFC 3339", `{"eventType": "ThreatDetected", "id": "m-1", "creationTime": "14/03/2025 09:31", "severity": "high", "data": {"sender": "a@b.c", "subject": "s"}}`, "email security payload: creationTime must be an RFC 3339 time", only(FormatEmailSecurity)},
		{"email severity missing", `{"eventType": "ThreatDetected", "id": "m-1", "creationTime": "2025-03-14T09:31:07Z", "data": {"sender": "a@b.c", "subject": "s"}}`, "email security payload: severity is required", only(FormatEmailSecurity)},
		{"email category number", `{` + email + `, "category": 3, "data": {"sender": "a@b.c", "subject": "s"}}`, "email security payload: category must be a string", only(FormatEmailSecurity)},
		{"email entityType object", `{` + email + `, "entityType": {}, "data": {"sender": "a@b.c", "subject": "s"}}`, "email security payload: entityType must be a string", only(FormatEmailSecurity)},
		{"email data missing", `{` + email + `}`, "email security payload: data is required", only(FormatEmailSecurity)},
		{"email sender missing", `{` + email + `, "data": {"subject": "s"}}`, "email security payload: data.sender is required", only(FormatEmailSecurity)},
		{"email sender object", `{` + email + `, "data": {"sender": {"address": "a@b.c"}, "subject": "s"}}`, "email security payload: data.sender must be a string", only(FormatEmailSecurity)},
		{"email subject missing", `{` + email + `, "data": {"sender": "a@b.c"}}`, "email security payload: data.subject is required", only(FormatEmailSecurity)},
		{"email recipients string", `{` + email + `, "data": {"sender": "a@b.c", "subject": "s", "recipients": "x@y.z"}}`, "email security payload: data.recipients must be an array", only(FormatEmailSecurity)},

		{"endpoint metadata string", `{"metadata": "v1", "event": {}}`, "endpoint detection payload: metadata must be an object", only(FormatEndpoint)},
		{"endpoint eventType missing", `{"metadata": {"eventCreationTime": 1741944530000}, "event": {}}`, "endpoint detection payload: metadata.eventType is required", only(FormatEndpoint)},
		{"endpoint eventCreationTime missing", `{"metadata": {"eventType": "DetectionSummaryEvent"}, "event": {}}`, "endpoint detection payload: metadata.eventCreationTime is required", only(FormatEndpoint)},
		{"endpoint eventCreationTime string", `{"metadata": {"eventType": "DetectionSummaryEvent", "eventCreationTime": "2025-03-14T09:28:50Z"}, "event": {}}`, "endpoint detection payload: metadata.eventCreationTime must be a number", only(FormatEndpoint)},
		{"endpoint event array", `{` + meta + `, "event": []}`, "endpoint detection payload: event must be an object", only(FormatEndpoint)},
		{"endpoint DetectId missing", `{` + meta + `, "event": {"Severity": 3, "HostnameField": "h", "DetectName": "n"}}`, "endpoint detection payload: event.DetectId is required", only(FormatEndpoint)},
		{"endpoint Severity missing", `{` + meta + `, "event": {"DetectId": "d", "HostnameField": "h", "DetectName": "n"}}`, "endpoint detection payload: event.Severity is required", only(FormatEndpoint)},
		{"endpoint Severity string", `{` + meta + `, "event": {"DetectId": "d", "Severity": "High", "HostnameField": "h", "DetectName": "n"}}`, "endpoint detection payload: event.Severity must be an integer", only(FormatEndpoint)},
		{"endpoint Severity fraction", `{` + meta + `, "event": {"DetectId": "d", "Severity": 3.5, "HostnameField": "h", "DetectName": "n"}}`, "endpoint detection payload: event.Severity must be an integer", only(FormatEndpoint)},
		{"endpoint DetectName missing", `{` + meta + `, "event": {"DetectId": "d", "Severity": 3, "HostnameField": "h"}}`, "endpoint detection payload: event.DetectName is required", only(FormatEndpoint)},
		{"endpoint host missing", `{` + meta + `, "event": {"DetectId": "d", "Severity": 3, "DetectName": "n"}}`, "endpoint detection payload: event.HostnameField is required", only(FormatEndpoint)},
		{"endpoint host number", `{` + meta + `, "event": {"DetectId": "d", "Severity": 3, "DetectName": "n", "HostnameField": 42}}`, "endpoint detection payload: event.HostnameField must be a string", only(FormatEndpoint)},

		{"log search name empty", `{"search_name": "", "result": {}, "trigger_time": 1741944612}`, "log-search payload: search_name must be a non-empty string", only(FormatLogSearch)},
		{"log search result missing", `{"search_name": "s", "trigger_time": 1741944612}`, "log-search payload: result is required", only(FormatLogSearch)},
		{"log search result list", `{"search_name": "s", "result": [], "trigger_time": 1741944612}`, "log-search payload: result must be an object", only(FormatLogSearch)},
		{"log search trigger_time missing", `{"search_name": "s", "result": {}}`, "log-search payload: trigger_time is required", only(FormatLogSearch)},
		{"log search trigger_time text", `{"search_name": "s", "result": {}, "trigger_time": "now"}`, "log-search payload: trigger_time must be unix seconds", only(FormatLogSearch)},

		{
			"two claimed formats, neither complete",
			`{"event_type": "x", "search_name": "s"}`,
			"generic payload: timestamp is required; log-search payload: result is required",
			[]string{only(FormatGeneric)[0], only(FormatLogSearch)[0]},
		},
		{
			"two complete formats are ambiguous",
			`{"event_type": "x", "timestamp": 1, "data": {"severity": "low"}, "search_name": "s", "result": {}, "trigger_time": 1}`,
			"payload is ambiguous: it fits formats generic and log_search",
			all,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse([]byte(tc.body), "src", nil)
			var fe *FormatError
			if !errors.As(err, &fe) {
				t.Fatalf("err = %v, want *FormatError", err)
			}
			if fe.Message != tc.msg || fe.Error() != tc.msg {
				t.Errorf("Message = %q, want %q", fe.Message, tc.msg)
			}
			if !reflect.DeepEqual(fe.Expected, tc.expected) {
				t.Errorf("Expected = %q, want %q", fe.Expected, tc.expected)
			}
		})
	}
}
