package simulated_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/vigil-soc/vigil/connectors"
)

func TestTicketsAreNumberedInSequence(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	for i := 1; i <= 3; i++ {
		res := mustOK(t)(e.set.Ticketing.CreateTicket(ctx, fmt.Sprintf("k-ticket-%d", i),
			connectors.Ticket{Title: "Phishing wave", Description: "details"}))
		mustKeys(t, res, "ticket_id", "url", "priority", "created_at")
		id := fmt.Sprintf("SIM-%06d", i)
		if res.Output["ticket_id"] != id || res.Output["url"] != "sim://tickets/"+id || res.Output["priority"] != "medium" {
			t.Fatalf("ticket %d output %v", i, res.Output)
		}
	}
	if n := rowCount(t, e.st, "sim_tickets"); n != 3 {
		t.Fatalf("%d tickets stored, want 3", n)
	}
	_, err := e.set.Ticketing.CreateTicket(ctx, "k-bad", connectors.Ticket{Title: "x", Priority: "urgent"})
	mustPermanent(t, err, "priority must be one of: low, medium, high, critical")
	_, err = e.set.Ticketing.CreateTicket(ctx, "k-bad", connectors.Ticket{})
	mustPermanent(t, err, "title is required")
}

func TestNotifyUser(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	cases := []struct {
		channel, want string
	}{
		{"", "email"},
		{"email", "email"},
		{"chat", "chat"},
	}
	for i, tc := range cases {
		res := mustOK(t)(e.set.Notifier.NotifyUser(ctx, fmt.Sprintf("k-notify-%d", i), "alice", "Your mailbox was cleaned", tc.channel))
		mustKeys(t, res, "notification_id", "delivered", "user", "channel", "sent_at")
		if res.Output["delivered"] != true || res.Output["channel"] != tc.want || res.Output["notification_id"] == "" {
			t.Fatalf("notification output %v", res.Output)
		}
	}
	if n := rowCount(t, e.st, "sim_notifications"); n != int64(len(cases)) {
		t.Fatalf("%d notifications stored, want %d", n, len(cases))
	}
	_, err := e.set.Notifier.NotifyUser(ctx, "k-bad", "alice", "hi", "pager")
	mustPermanent(t, err, "channel must be one of: email, chat")
	_, err = e.set.Notifier.NotifyUser(ctx, "k-bad", "alice", "", "chat")
	mustPermanent(t, err, "message is required")
}
