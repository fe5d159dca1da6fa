package actions_test

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/vigil-soc/vigil/actions"
)

func mustLookup(t *testing.T, name string) actions.Type {
	t.Helper()
	typ, ok := actions.Lookup(name)
	if !ok {
		t.Fatalf("action type %s not in the catalog", name)
	}
	return typ
}

func TestValidate(t *testing.T) {
	cases := []struct {
		name   string
		action string
		params map[string]any
		want   map[string]any    // normalized output when valid
		errs   map[string]string // expected errors when invalid
	}{
		{"quarantine ok", actions.QuarantineEmail, map[string]any{"message_id": " m-1 ", "reason": "phish"},
			map[string]any{"message_id": "m-1", "reason": "phish"}, nil},
		{"quarantine missing id", actions.QuarantineEmail, map[string]any{"reason": "x"},
			nil, map[string]string{"parameters.message_id": "is required"}},
		{"quarantine blank id", actions.QuarantineEmail, map[string]any{"message_id": "   "},
			nil, map[string]string{"parameters.message_id": "is required"}},
		{"quarantine null id", actions.QuarantineEmail, map[string]any{"message_id": nil},
			nil, map[string]string{"parameters.message_id": "is required"}},
		{"quarantine id not a string", actions.QuarantineEmail, map[string]any{"message_id": 42.0},
			nil, map[string]string{"parameters.message_id": "must be a string"}},
		{"nil params", actions.ReleaseEmail, nil,
			nil, map[string]string{"parameters.message_id": "is required"}},
		{"unknown parameter", actions.ReleaseEmail, map[string]any{"message_id": "m", "force": true},
			nil, map[string]string{"parameters.force": "unknown parameter"}},
		{"optional null dropped", actions.ReleaseEmail, map[string]any{"message_id": "m", "reason": nil},
			map[string]any{"message_id": "m"}, nil},
		{"reason too long", actions.ReleaseEmail, map[string]any{"message_id": "m", "reason": strings.Repeat("r", 1001)},
			nil, map[string]string{"parameters.reason": "must be at most 1000 characters"}},
		{"reason at limit", actions.ReleaseEmail, map[string]any{"message_id": "m", "reason": strings.Repeat("é", 1000)},
			map[string]any{"message_id": "m", "reason": strings.Repeat("é", 1000)}, nil},
		{"block address", actions.BlockSender, map[string]any{"sender": "Evil.Doer+x@Bad-Domain.example"},
			map[string]any{"sender": "Evil.Doer+x@Bad-Domain.example"}, nil},
		{"block domain", actions.BlockSender, map[string]any{"sender": "bad.example.com"},
			map[string]any{"sender": "bad.example.com"}, nil},
		{"block garbage", actions.BlockSender, map[string]any{"sender": "not a sender"},
			nil, map[string]string{"parameters.sender": "must be an email address or a domain"}},
		{"block bare word", actions.UnblockSender, map[string]any{"sender": "localhost"},
			nil, map[string]string{"parameters.sender": "must be an email address or a domain"}},
		{"block two ats", actions.BlockSender, map[string]any{"sender": "a@b@c.com"},
			nil, map[string]string{"parameters.sender": "must be an email address or a domain"}},
		{"isolate ok", actions.IsolateHost, map[string]any{"host_id": "h-1"},
			map[string]any{"host_id": "h-1"}, nil},
		{"unisolate missing host", actions.UnisolateHost, map[string]any{},
			nil, map[string]string{"parameters.host_id": "is required"}},
		{"scan default type", actions.ScanHost, map[string]any{"host_id": "h-1"},
			map[string]any{"host_id": "h-1", "scan_type": "quick"}, nil},
		{"scan empty type takes default", actions.ScanHost, map[string]any{"host_id": "h-1", "scan_type": ""},
			map[string]any{"host_id": "h-1", "scan_type": "quick"}, nil},
		{"scan full", actions.ScanHost, map[string]any{"host_id": "h-1", "scan_type": "full"},
			map[string]any{"host_id": "h-1", "scan_type": "full"}, nil},
		{"scan bad enum", actions.ScanHost, map[string]any{"host_id": "h-1", "scan_type": "deep"},
			nil, map[string]string{"parameters.scan_type": "must be one of: quick, full"}},
		{"ticket defaults", actions.CreateTicket, map[string]any{"title": "Phish"},
			map[string]any{"title": "Phish", "priority": "medium"}, nil},
		{"ticket title too long", actions.CreateTicket, map[string]any{"title": strings.Repeat("t", 201)},
			nil, map[string]string{"parameters.title": "must be at most 200 characters"}},
		{"ticket bad priority and missing title", actions.CreateTicket, map[string]any{"priority": "urgent"},
			nil, map[string]string{"parameters.title": "is required", "parameters.priority": "must be one of: low, medium, high, critical"}},
		{"notify defaults", actions.NotifyUser, map[string]any{"user": "alice", "message": "hi"},
			map[string]any{"user": "alice", "message": "hi", "channel": "email"}, nil},
		{"notify email user chat", actions.NotifyUser, map[string]any{"user": "alice@example.com", "message": "hi", "channel": "chat"},
			map[string]any{"user": "alice@example.com", "message": "hi", "channel": "chat"}, nil},
		{"notify bad user", actions.NotifyUser, map[string]any{"user": "al ice", "message": "hi"},
			nil, map[string]string{"parameters.user": "must be a username or an email address"}},
		{"notify message too long", actions.NotifyUser, map[string]any{"user": "a", "message": strings.Repeat("m", 2001)},
			nil, map[string]string{"parameters.message": "must be at most 2000 characters"}},
		{"notify message wrong type", actions.NotifyUser, map[string]any{"user": "a", "message": []any{"x"}},
			nil, map[string]string{"parameters.message": "must be a string"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, errs := mustLookup(t, tc.action).Validate(tc.params)
			if tc.errs != nil {
				if !reflect.DeepEqual(errs, tc.errs) {
					t.Fatalf("errors %v, want %v", errs, tc.errs)
				}
				if got != nil {
					t.Fatalf("invalid parameters returned a normalized map %v", got)
				}
				return
			}
			if errs != nil {
				t.Fatalf("unexpected errors %v", errs)
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Fatalf("normalized %v, want %v", got, tc.want)
			}
		})
	}
}

// TestValidateJSONTypes covers the parameter types no catalog entry uses
// yet, through a type built for the test.
func TestValidateJSONTypes(t *testing.T) {
	typ := actions.Type{Name: "probe", Parameters: []actions.Param{
		{Name: "count", Type: actions.TypeInteger},
		{Name: "flag", Type: actions.TypeBoolean},
		{Name: "obj", Type: actions.TypeObject},
		{Name: "list", Type: actions.TypeArray},
	}}
	cases := []struct {
		name  string
		param string
		value any
		want  any    // normalized value when valid
		err   string // expected message when invalid
	}{
		{"whole float", "count", 3.0, int64(3), ""},
		{"negative whole float", "count", -7.0, int64(-7), ""},
		{"json number", "count", json.Number("12"), int64(12), ""},
		{"go int", "count", 5, int64(5), ""},
		{"fraction", "count", 2.5, nil, "must be an integer"},
		{"json fraction", "count", json.Number("2.5"), nil, "must be an integer"},
		{"beyond exact floats", "count", 1e300, nil, "must be an integer"},
		{"string count", "count", "3", nil, "must be an integer"},
		{"bool", "flag", true, true, ""},
		{"bool as string", "flag", "true", nil, "must be a boolean"},
		{"object", "obj", map[string]any{"a": 1.0}, map[string]any{"a": 1.0}, ""},
		{"object as array", "obj", []any{}, nil, "must be an object"},
		{"array", "list", []any{"a"}, []any{"a"}, ""},
		{"array as object", "list", map[string]any{}, nil, "must be an array"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, errs := typ.Validate(map[string]any{tc.param: tc.value})
			if tc.err != "" {
				if want := map[string]string{"parameters." + tc.param: tc.err}; !reflect.DeepEqual(errs, want) {
					t.Fatalf("errors %v, want %v", errs, want)
				}
				return
			}
			if errs != nil {
				t.Fatalf("unexpected errors %v", errs)
			}
			if !reflect.DeepEqual(got[tc.param], tc.want) {
				t.Fatalf("normalized %#v, want %#v", got[tc.param], tc.want)
			}
		})
	}
}
