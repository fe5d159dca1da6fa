package simulated_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/vigil-soc/vigil/actions"
	"github.com/vigil-soc/vigil/connectors"
	"github.com/vigil-soc/vigil/connectors/simulated"
)

// TestExecuteEveryActionType runs each catalog type through Set.Execute in
// an order where every step is valid (release after quarantine, and so on).
func TestExecuteEveryActionType(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	cases := []struct {
		action string
		params map[string]any
		fields []string
		check  func(t *testing.T)
	}{
		{actions.QuarantineEmail, map[string]any{"message_id": "m-1", "reason": "phish"},
			[]string{"message_id", "status", "quarantined_at"}, func(t *testing.T) {
				if s := messageStatus(t, e.set.Email, "m-1"); s != connectors.MessageQuarantined {
					t.Fatalf("message %s", s)
				}
			}},
		{actions.ReleaseEmail, map[string]any{"message_id": "m-1"},
			[]string{"message_id", "status", "released_at"}, func(t *testing.T) {
				if s := messageStatus(t, e.set.Email, "m-1"); s != connectors.MessageReleased {
					t.Fatalf("message %s", s)
				}
			}},
		{actions.BlockSender, map[string]any{"sender": "x@bad.example"},
			[]string{"sender", "blocked", "blocked_at"}, func(t *testing.T) {
				if ok, _ := e.set.Email.SenderBlocked(ctx, "x@bad.example"); !ok {
					t.Fatal("sender not blocked")
				}
			}},
		{actions.UnblockSender, map[string]any{"sender": "x@bad.example"},
			[]string{"sender", "blocked", "unblocked_at"}, func(t *testing.T) {
				if ok, _ := e.set.Email.SenderBlocked(ctx, "x@bad.example"); ok {
					t.Fatal("sender still blocked")
				}
			}},
		{actions.IsolateHost, map[string]any{"host_id": "h-1"},
			[]string{"isolation_id", "host_id", "hostname", "isolated_at", "status"}, func(t *testing.T) {
				if h := hostState(t, e.set.EDR, "h-1"); h.Status != connectors.HostIsolated {
					t.Fatalf("host %+v", h)
				}
			}},
		{actions.UnisolateHost, map[string]any{"host_id": "h-1"},
			[]string{"host_id", "hostname", "unisolated_at", "status"}, func(t *testing.T) {
				if h := hostState(t, e.set.EDR, "h-1"); h.Status != connectors.HostActive {
					t.Fatalf("host %+v", h)
				}
			}},
		{actions.ScanHost, map[string]any{"host_id": "h-1"},
			[]string{"scan_id", "host_id", "scan_type", "started_at", "status"}, nil},
		{actions.CreateTicket, map[string]any{"title": "Investigate", "priority": "high"},
			[]string{"ticket_id", "url", "priority", "created_at"}, nil},
		{actions.NotifyUser, map[string]any{"user": "carol@example.com", "message": "done"},
			[]string{"notification_id", "delivered", "user", "channel", "sent_at"}, nil},
		{actions.DisableUser, map[string]any{"user": "Ann@Corp.example", "reason": "impossible travel"},
			[]string{"user", "status", "changed_at"}, func(t *testing.T) {
				if s := userStatus(t, e.set, "ann@corp.example"); s != simulated.UserDisabled {
					t.Fatalf("user %s", s)
				}
			}},
		{actions.RevokeSessions, map[string]any{"user": "ann@corp.example"},
			[]string{"user", "status", "changed_at"}, nil},
		{actions.ResetMFA, map[string]any{"user": "ann@corp.example"},
			[]string{"user", "status", "changed_at"}, nil},
		{actions.EnableUser, map[string]any{"user": "ann@corp.example"},
			[]string{"user", "status", "changed_at"}, func(t *testing.T) {
				if s := userStatus(t, e.set, "ann@corp.example"); s != simulated.UserEnabled {
					t.Fatalf("user %s", s)
				}
			}},
	}
	// The generic HTTP action is never simulated: it has its own executor.
	covered := map[string]bool{actions.HTTPRequest: true}
	for _, tc := range cases {
		covered[tc.action] = true
		t.Run(tc.action, func(t *testing.T) {
			res := mustOK(t)(e.set.Execute(ctx, tc.action, "action-"+tc.action, tc.params))
			mustKeys(t, res, tc.fields...)
			if tc.check != nil {
				tc.check(t)
			}
		})
	}
	for _, typ := range actions.Types() {
		if !covered[typ.Name] {
			t.Errorf("action type %s not exercised", typ.Name)
		}
	}

	// A permanent failure from the connector comes through Execute intact.
	_, err := e.set.Execute(ctx, actions.ReleaseEmail, "action-release-again", map[string]any{"message_id": "m-9"})
	mustPermanent(t, err, "message m-9 is not quarantined")
}

func userStatus(t *testing.T, set connectors.Set, user string) string {
	t.Helper()
	s, err := simulated.UserStatus(context.Background(), set, user)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestDisableUserIdempotent repeats a disable with one key and disables an
// already disabled account with another.
func TestDisableUserIdempotent(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	first := mustOK(t)(e.set.Identity.DisableUser(ctx, "k-1", "bob", "r"))
	again := mustOK(t)(e.set.Identity.DisableUser(ctx, "k-1", "bob", "r"))
	if first.Message != again.Message || first.Output["changed_at"] != again.Output["changed_at"] {
		t.Fatalf("repeat with one key differs: %+v vs %+v", first, again)
	}
	other := mustOK(t)(e.set.Identity.DisableUser(ctx, "k-2", "BOB", "r"))
	if !strings.Contains(other.Message, "already disabled") {
		t.Fatalf("second disable: %q", other.Message)
	}
}

func TestHealthOfSimulatedSet(t *testing.T) {
	e := newEnv(t)
	got := e.set.Health(context.Background())
	want := []struct{ name, kind string }{
		{"simulated-email-gateway", "email_gateway"},
		{"simulated-edr", "edr"},
		{"simulated-ticketing", "ticketing"},
		{"simulated-notifier", "notifier"},
		{"simulated-identity", "identity"},
	}
	if len(got) != len(want) {
		t.Fatalf("health %+v", got)
	}
	for i, w := range want {
		h := got[i]
		if h.Name != w.name || h.Type != w.kind || h.Status != connectors.StatusHealthy || !h.Simulated ||
			!strings.HasPrefix(h.Message, "[simulated] ") {
			t.Fatalf("health %d = %+v, want %s/%s healthy and simulated", i, h, w.name, w.kind)
		}
	}

	// With the database gone every simulated connector is unhealthy.
	st := newEnv(t).st
	set := simulated.New(st)
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}
	for _, h := range set.Health(context.Background()) {
		if h.Status != connectors.StatusUnhealthy || !h.Simulated {
			t.Fatalf("health with a closed database: %+v", h)
		}
	}
	_, err := set.Execute(context.Background(), actions.IsolateHost, "k", map[string]any{"host_id": "h"})
	if err == nil || errors.Is(err, connectors.ErrPermanent) {
		t.Fatalf("a database outage must be a retryable error, got %v", err)
	}
}
