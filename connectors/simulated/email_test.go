package simulated_test

import (
	"context"
	"testing"

	"github.com/vigil-soc/vigil/connectors"
)

func messageStatus(t *testing.T, gw connectors.EmailGateway, id string) string {
	t.Helper()
	s, err := gw.MessageStatus(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestQuarantineAndRelease(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	gw := e.set.Email

	if s := messageStatus(t, gw, "msg-1"); s != connectors.MessageDelivered {
		t.Fatalf("unknown message status %q, want delivered", s)
	}
	res := mustOK(t)(gw.Quarantine(ctx, "k-quarantine", "msg-1", "phishing"))
	mustKeys(t, res, "message_id", "status", "quarantined_at")
	if res.Output["status"] != "quarantined" || res.Output["message_id"] != "msg-1" ||
		res.Output["quarantined_at"] != "2026-03-01T10:00:00Z" {
		t.Fatalf("quarantine output %v", res.Output)
	}
	if s := messageStatus(t, gw, "msg-1"); s != connectors.MessageQuarantined {
		t.Fatalf("status after quarantine %q", s)
	}

	again := mustOK(t)(gw.Quarantine(ctx, "k-quarantine-2", "msg-1", "again"))
	if again.Message != "[simulated] message msg-1 already quarantined" {
		t.Fatalf("second quarantine message %q", again.Message)
	}

	e.clock.Advance(60e9)
	res = mustOK(t)(gw.Release(ctx, "k-release", "msg-1", "false positive"))
	mustKeys(t, res, "message_id", "status", "released_at")
	if res.Output["status"] != "released" || res.Output["released_at"] != "2026-03-01T10:01:00Z" {
		t.Fatalf("release output %v", res.Output)
	}
	if s := messageStatus(t, gw, "msg-1"); s != connectors.MessageReleased {
		t.Fatalf("status after release %q", s)
	}
}

func TestReleaseWhenNotQuarantinedIsPermanent(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	gw := e.set.Email

	_, err := gw.Release(ctx, "k-never", "msg-unknown", "")
	mustPermanent(t, err, "message msg-unknown is not quarantined")

	mustOK(t)(gw.Quarantine(ctx, "k-q", "msg-2", ""))
	mustOK(t)(gw.Release(ctx, "k-r1", "msg-2", ""))
	_, err = gw.Release(ctx, "k-r2", "msg-2", "")
	mustPermanent(t, err, "message msg-2 is not quarantined")

	// A failed call leaves no record, so it is not replayed as a success.
	for _, key := range []string{"k-never", "k-r2"} {
		if n := callCount(t, e.st, key); n != 0 {
			t.Fatalf("failed call %s recorded %d times", key, n)
		}
	}
}

func TestBlockAndUnblockSender(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	gw := e.set.Email

	blocked := func(sender string) bool {
		t.Helper()
		ok, err := gw.SenderBlocked(ctx, sender)
		if err != nil {
			t.Fatal(err)
		}
		return ok
	}

	res := mustOK(t)(gw.BlockSender(ctx, "k-b1", "Evil@Bad.Example", "phishing"))
	mustKeys(t, res, "sender", "blocked", "blocked_at")
	if res.Output["sender"] != "evil@bad.example" || res.Output["blocked"] != true {
		t.Fatalf("block output %v", res.Output)
	}
	mustOK(t)(gw.BlockSender(ctx, "k-b2", "spam.example", ""))

	cases := []struct {
		sender string
		want   bool
	}{
		{"evil@bad.example", true},
		{"EVIL@BAD.EXAMPLE", true},
		{"other@bad.example", false},
		{"anyone@spam.example", true}, // a domain block covers its addresses
		{"spam.example", true},
		{"friend@good.example", false},
	}
	for _, tc := range cases {
		if got := blocked(tc.sender); got != tc.want {
			t.Errorf("SenderBlocked(%q) = %v, want %v", tc.sender, got, tc.want)
		}
	}

	again := mustOK(t)(gw.BlockSender(ctx, "k-b3", "evil@bad.example", ""))
	if again.Message != "[simulated] sender evil@bad.example already blocked" {
		t.Fatalf("second block message %q", again.Message)
	}

	res = mustOK(t)(gw.UnblockSender(ctx, "k-u1", "evil@BAD.example", "rollback"))
	mustKeys(t, res, "sender", "blocked", "unblocked_at")
	if res.Output["blocked"] != false || blocked("evil@bad.example") {
		t.Fatalf("sender still blocked after unblock: %v", res.Output)
	}
	res = mustOK(t)(gw.UnblockSender(ctx, "k-u2", "evil@bad.example", ""))
	if res.Message != "[simulated] sender evil@bad.example was not blocked" {
		t.Fatalf("unblocking an unblocked sender: %q", res.Message)
	}
}

func TestEmailArgumentsRequired(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	gw := e.set.Email
	cases := []struct {
		name string
		call func() error
		msg  string
	}{
		{"quarantine", func() error { _, err := gw.Quarantine(ctx, "k", " ", ""); return err }, "message_id is required"},
		{"release", func() error { _, err := gw.Release(ctx, "k", "", ""); return err }, "message_id is required"},
		{"block", func() error { _, err := gw.BlockSender(ctx, "k", "", ""); return err }, "sender is required"},
		{"unblock", func() error { _, err := gw.UnblockSender(ctx, "k", "", ""); return err }, "sender is required"},
		{"empty key", func() error { _, err := gw.Quarantine(ctx, "", "m", ""); return err }, "email_gateway quarantine: empty idempotency key"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) { mustPermanent(t, tc.call(), tc.msg) })
	}
}
