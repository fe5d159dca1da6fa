package connectors_test

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"testing"

	"github.com/vigil-soc/vigil/actions"
	"github.com/vigil-soc/vigil/connectors"
)

// recorder implements every connector kind and records the last call.
type recorder struct{ last []any }

func (r *recorder) rec(args ...any) (connectors.Result, error) {
	r.last = args
	return connectors.Result{Success: true, Message: "ok"}, nil
}

func (r *recorder) Quarantine(_ context.Context, key, id, reason string) (connectors.Result, error) {
	return r.rec("Quarantine", key, id, reason)
}
func (r *recorder) Release(_ context.Context, key, id, reason string) (connectors.Result, error) {
	return r.rec("Release", key, id, reason)
}
func (r *recorder) BlockSender(_ context.Context, key, s, reason string) (connectors.Result, error) {
	return r.rec("BlockSender", key, s, reason)
}
func (r *recorder) UnblockSender(_ context.Context, key, s, reason string) (connectors.Result, error) {
	return r.rec("UnblockSender", key, s, reason)
}
func (r *recorder) MessageStatus(context.Context, string) (string, error) { return "delivered", nil }
func (r *recorder) SenderBlocked(context.Context, string) (bool, error)   { return false, nil }
func (r *recorder) Isolate(_ context.Context, key, h, reason string) (connectors.Result, error) {
	return r.rec("Isolate", key, h, reason)
}
func (r *recorder) Unisolate(_ context.Context, key, h, reason string) (connectors.Result, error) {
	return r.rec("Unisolate", key, h, reason)
}
func (r *recorder) StartScan(_ context.Context, key, h, typ string) (connectors.Result, error) {
	return r.rec("StartScan", key, h, typ)
}
func (r *recorder) Scan(context.Context, string) (connectors.ScanReport, error) {
	return connectors.ScanReport{}, nil
}
func (r *recorder) Host(context.Context, string) (connectors.HostState, error) {
	return connectors.HostState{}, nil
}
func (r *recorder) CreateTicket(_ context.Context, key string, t connectors.Ticket) (connectors.Result, error) {
	return r.rec("CreateTicket", key, t)
}
func (r *recorder) NotifyUser(_ context.Context, key, user, msg, ch string) (connectors.Result, error) {
	return r.rec("NotifyUser", key, user, msg, ch)
}

func (r *recorder) DisableUser(_ context.Context, key, user, reason string) (connectors.Result, error) {
	return r.rec("DisableUser", key, user, reason)
}
func (r *recorder) EnableUser(_ context.Context, key, user, reason string) (connectors.Result, error) {
	return r.rec("EnableUser", key, user, reason)
}
func (r *recorder) RevokeSessions(_ context.Context, key, user, reason string) (connectors.Result, error) {
	return r.rec("RevokeSessions", key, user, reason)
}
func (r *recorder) ResetMFA(_ context.Context, key, user, reason string) (connectors.Result, error) {
	return r.rec("ResetMFA", key, user, reason)
}
func (r *recorder) Request(_ context.Context, key string, params map[string]any) (connectors.Result, error) {
	return r.rec("Request", key, params["method"], params["url"])
}

func fullSet(r *recorder) connectors.Set {
	return connectors.Set{Email: r, EDR: r, Ticketing: r, Notifier: r, Identity: r, HTTP: r}
}

func TestExecuteDispatch(t *testing.T) {
	cases := []struct {
		action string
		params map[string]any
		want   []any
	}{
		{actions.QuarantineEmail, map[string]any{"message_id": "m", "reason": "r"}, []any{"Quarantine", "k", "m", "r"}},
		{actions.ReleaseEmail, map[string]any{"message_id": "m"}, []any{"Release", "k", "m", ""}},
		{actions.BlockSender, map[string]any{"sender": "a@b.example"}, []any{"BlockSender", "k", "a@b.example", ""}},
		{actions.UnblockSender, map[string]any{"sender": "b.example", "reason": "r"}, []any{"UnblockSender", "k", "b.example", "r"}},
		{actions.IsolateHost, map[string]any{"host_id": "h", "reason": "r"}, []any{"Isolate", "k", "h", "r"}},
		{actions.UnisolateHost, map[string]any{"host_id": "h"}, []any{"Unisolate", "k", "h", ""}},
		{actions.ScanHost, map[string]any{"host_id": "h"}, []any{"StartScan", "k", "h", "quick"}},
		{actions.CreateTicket, map[string]any{"title": "t", "description": "d"},
			[]any{"CreateTicket", "k", connectors.Ticket{Title: "t", Description: "d", Priority: "medium"}}},
		{actions.NotifyUser, map[string]any{"user": "u", "message": "m"}, []any{"NotifyUser", "k", "u", "m", "email"}},
		{actions.DisableUser, map[string]any{"user": "ann@corp.example", "reason": "r"}, []any{"DisableUser", "k", "ann@corp.example", "r"}},
		{actions.EnableUser, map[string]any{"user": "ann"}, []any{"EnableUser", "k", "ann", ""}},
		{actions.RevokeSessions, map[string]any{"user": "ann"}, []any{"RevokeSessions", "k", "ann", ""}},
		{actions.ResetMFA, map[string]any{"user": "ann"}, []any{"ResetMFA", "k", "ann", ""}},
		{actions.HTTPRequest, map[string]any{"url": "https://x.example/a"}, []any{"Request", "k", "POST", "https://x.example/a"}},
	}
	covered := map[string]bool{}
	for _, tc := range cases {
		t.Run(tc.action, func(t *testing.T) {
			r := &recorder{}
			if _, err := fullSet(r).Execute(context.Background(), tc.action, "k", tc.params); err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(r.last, tc.want) {
				t.Fatalf("called %v, want %v", r.last, tc.want)
			}
		})
		covered[tc.action] = true
	}
	for _, typ := range actions.Types() {
		if !covered[typ.Name] {
			t.Errorf("action type %s has no dispatch case", typ.Name)
		}
	}
}

func TestExecuteFailsPermanently(t *testing.T) {
	r := &recorder{}
	cases := []struct {
		name   string
		set    connectors.Set
		action string
		key    string
		params map[string]any
		msg    string
	}{
		{"unknown type", fullSet(r), "parse_email", "k", nil, `unknown action type "parse_email"`},
		{"empty key", fullSet(r), actions.IsolateHost, "", map[string]any{"host_id": "h"}, "isolate_host: empty idempotency key"},
		{"invalid parameters", fullSet(r), actions.IsolateHost, "k", map[string]any{"host": "h", "reason": 1.0},
			"invalid parameters for isolate_host: parameters.host unknown parameter; " +
				"parameters.host_id is required; parameters.reason must be a string"},
		{"no connector", connectors.Set{Email: r}, actions.IsolateHost, "k", map[string]any{"host_id": "h"},
			"no edr connector is configured"},
		{"no identity connector", connectors.Set{Email: r, EDR: r, HTTP: r}, actions.DisableUser, "k", map[string]any{"user": "ann"},
			"no identity connector is configured"},
		{"no HTTP executor", connectors.Set{Email: r, EDR: r, Ticketing: r, Notifier: r, Identity: r}, actions.HTTPRequest, "k", map[string]any{"url": "https://x.example/a"},
			"no http connector is configured"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r.last = nil
			_, err := tc.set.Execute(context.Background(), tc.action, tc.key, tc.params)
			if !errors.Is(err, connectors.ErrPermanent) || err.Error() != tc.msg {
				t.Fatalf("error %v, want permanent %q", err, tc.msg)
			}
			if r.last != nil {
				t.Fatalf("a connector was called: %v", r.last)
			}
		})
	}
}

func TestPermanent(t *testing.T) {
	cause := errors.New("boom")
	cases := []struct {
		name  string
		err   error
		msg   string
		cause bool
	}{
		{"wrap", connectors.Permanent(cause), "boom", true},
		{"format", connectors.Permanentf("host %s unknown", "h"), "host h unknown", false},
		{"format with cause", connectors.Permanentf("lookup: %w", cause), "lookup: boom", true},
		{"wrapped again", fmt.Errorf("execute: %w", connectors.Permanent(cause)), "execute: boom", true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if !errors.Is(tc.err, connectors.ErrPermanent) || tc.err.Error() != tc.msg || errors.Is(tc.err, cause) != tc.cause {
				t.Fatalf("error %v: permanent %v, cause %v", tc.err, errors.Is(tc.err, connectors.ErrPermanent), errors.Is(tc.err, cause))
			}
		})
	}
	if connectors.Permanent(nil) != nil {
		t.Fatal("Permanent(nil) is not nil")
	}
	if errors.Is(cause, connectors.ErrPermanent) {
		t.Fatal("a plain error matched ErrPermanent")
	}
}

// checked is a connector that reports its own health.
type checked struct{ recorder }

func (checked) CheckHealth(context.Context) connectors.Health {
	return connectors.Health{Name: "vendor-edr", Status: connectors.StatusDegraded, Message: "slow"}
}

func TestHealth(t *testing.T) {
	set := connectors.Set{Email: &recorder{}, EDR: &checked{}}
	got := set.Health(context.Background())
	want := []connectors.Health{
		{Name: "email_gateway", Type: "email_gateway", Status: "healthy", Message: "no health check available"},
		{Name: "vendor-edr", Type: "edr", Status: "degraded", Message: "slow"},
		{Name: "ticketing", Type: "ticketing", Status: "unhealthy", Message: "not configured"},
		{Name: "notifier", Type: "notifier", Status: "unhealthy", Message: "not configured"},
		{Name: "identity", Type: "identity", Status: "unhealthy", Message: "not configured"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("health %+v\nwant %+v", got, want)
	}
	for _, id := range []string{"edr", "vendor-edr"} {
		if h, ok := set.HealthOf(context.Background(), id); !ok || h.Name != "vendor-edr" {
			t.Fatalf("HealthOf(%s) = %+v, %v", id, h, ok)
		}
	}
	if _, ok := set.HealthOf(context.Background(), "siem"); ok {
		t.Fatal("HealthOf found an unknown connector")
	}
}
