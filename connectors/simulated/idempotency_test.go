package simulated_test

import (
	"context"
	"fmt"
	"reflect"
	"sync"
	"testing"
	"time"

	"github.com/vigil-soc/vigil/connectors"
	"github.com/vigil-soc/vigil/connectors/simulated"
)

// operation is one state-changing call, with a way to count its effect.
type operation struct {
	name   string
	run    func(s connectors.Set, key string) (connectors.Result, error)
	effect func(t *testing.T, e env) int64 // how many times the state changed
}

func operations() []operation {
	ctx := context.Background()
	return []operation{
		{"quarantine", func(s connectors.Set, key string) (connectors.Result, error) {
			return s.Email.Quarantine(ctx, key, "msg-1", "r")
		}, func(t *testing.T, e env) int64 { return rowCount(t, e.st, "sim_messages") }},
		{"block", func(s connectors.Set, key string) (connectors.Result, error) {
			return s.Email.BlockSender(ctx, key, "bad.example", "r")
		}, func(t *testing.T, e env) int64 { return rowCount(t, e.st, "sim_blocked_senders") }},
		{"isolate", func(s connectors.Set, key string) (connectors.Result, error) {
			return s.EDR.Isolate(ctx, key, "host-1", "r")
		}, func(t *testing.T, e env) int64 {
			var n int64
			if err := e.st.DB().Table("sim_hosts").Where("status = ?", "isolated").Count(&n).Error; err != nil {
				t.Fatal(err)
			}
			return n
		}},
		{"scan", func(s connectors.Set, key string) (connectors.Result, error) {
			return s.EDR.StartScan(ctx, key, "host-1", "quick")
		}, func(t *testing.T, e env) int64 { return rowCount(t, e.st, "sim_scans") }},
		{"ticket", func(s connectors.Set, key string) (connectors.Result, error) {
			return s.Ticketing.CreateTicket(ctx, key, connectors.Ticket{Title: "t"})
		}, func(t *testing.T, e env) int64 { return rowCount(t, e.st, "sim_tickets") }},
		{"notify", func(s connectors.Set, key string) (connectors.Result, error) {
			return s.Notifier.NotifyUser(ctx, key, "bob", "m", "chat")
		}, func(t *testing.T, e env) int64 { return rowCount(t, e.st, "sim_notifications") }},
	}
}

// TestSameKeyPerformsOnce repeats each operation with one key, later in
// time, and expects the first result back and a single state change.
func TestSameKeyPerformsOnce(t *testing.T) {
	for _, op := range operations() {
		t.Run(op.name, func(t *testing.T) {
			e := newEnv(t)
			first := mustOK(t)(op.run(e.set, "key-1"))
			e.clock.Advance(time.Hour)
			second := mustOK(t)(op.run(e.set, "key-1"))
			if !reflect.DeepEqual(first, second) {
				t.Fatalf("repeated call returned a different result:\nfirst  %+v\nsecond %+v", first, second)
			}
			if n := callCount(t, e.st, "key-1"); n != 1 {
				t.Fatalf("call recorded %d times", n)
			}
			if n := op.effect(t, e); n != 1 {
				t.Fatalf("state changed %d times", n)
			}
		})
	}
}

// TestSameKeyConcurrently races ten callers with one key: exactly one
// performs the operation and all of them get its result.
func TestSameKeyConcurrently(t *testing.T) {
	for _, op := range operations() {
		t.Run(op.name, func(t *testing.T) {
			e := newEnv(t)
			const n = 10
			results := make([]connectors.Result, n)
			errs := make([]error, n)
			var wg sync.WaitGroup
			start := make(chan struct{})
			for i := range n {
				wg.Add(1)
				go func() {
					defer wg.Done()
					<-start
					results[i], errs[i] = op.run(e.set, "shared-key")
				}()
			}
			close(start)
			wg.Wait()
			for i := range n {
				if errs[i] != nil {
					t.Fatalf("caller %d: %v", i, errs[i])
				}
				if !reflect.DeepEqual(results[i], results[0]) {
					t.Fatalf("caller %d got %+v, caller 0 got %+v", i, results[i], results[0])
				}
			}
			if c := callCount(t, e.st, "shared-key"); c != 1 {
				t.Fatalf("call recorded %d times", c)
			}
			if c := op.effect(t, e); c != 1 {
				t.Fatalf("state changed %d times", c)
			}
		})
	}
}

func TestKeyReusedForAnotherOperationIsPermanent(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	mustOK(t)(e.set.EDR.Isolate(ctx, "key-1", "host-1", ""))
	_, err := e.set.EDR.Unisolate(ctx, "key-1", "host-1", "")
	mustPermanent(t, err, "idempotency key key-1 was already used for edr isolate")
	if h := hostState(t, e.set.EDR, "host-1"); h.Status != connectors.HostIsolated {
		t.Fatalf("reused key changed the host: %+v", h)
	}
}

func TestCallsRecordStartAndOperation(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	mustOK(t)(e.set.Email.Quarantine(ctx, "k-1", "msg-1", "phish"))
	e.clock.Advance(time.Second)
	mustOK(t)(e.set.EDR.Isolate(ctx, "k-2", "host-1", ""))

	calls, err := simulated.Calls(ctx, e.st)
	if err != nil {
		t.Fatal(err)
	}
	if len(calls) != 2 {
		t.Fatalf("%d calls, want 2", len(calls))
	}
	start := newClock().Now()
	want := []struct {
		key, connector, operation string
		started                   time.Time
	}{
		{"k-1", "email_gateway", "quarantine", start},
		{"k-2", "edr", "isolate", start.Add(time.Second)},
	}
	for i, w := range want {
		c := calls[i]
		if c.Key != w.key || c.Connector != w.connector || c.Operation != w.operation || !c.StartedAt.Equal(w.started) {
			t.Fatalf("call %d = %+v, want %+v", i, c, w)
		}
		if c.CompletedAt == nil || !c.Result.Success {
			t.Fatalf("call %d not completed: %+v", i, c)
		}
	}
	if calls[0].Request["message_id"] != "msg-1" || calls[0].Request["reason"] != "phish" {
		t.Fatalf("request not recorded: %v", calls[0].Request)
	}
}

// TestDifferentKeysOneHost races ten isolations of a never-seen host under
// different keys: each is its own call, but the host is isolated once and
// every caller reports the same isolation.
func TestDifferentKeysOneHost(t *testing.T) {
	e := newEnv(t)
	const n = 10
	results := make([]connectors.Result, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	start := make(chan struct{})
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			results[i], errs[i] = e.set.EDR.Isolate(context.Background(), fmt.Sprintf("key-%d", i), "new-host", "")
		}()
	}
	close(start)
	wg.Wait()
	fresh := 0
	for i := range n {
		if errs[i] != nil {
			t.Fatalf("caller %d: %v", i, errs[i])
		}
		if results[i].Output["isolation_id"] != results[0].Output["isolation_id"] {
			t.Fatalf("callers saw different isolations: %v vs %v", results[i].Output, results[0].Output)
		}
		if results[i].Message == "[simulated] host new-host isolated" {
			fresh++
		}
	}
	if fresh != 1 {
		t.Fatalf("%d callers isolated the host, want 1", fresh)
	}
	calls, err := simulated.Calls(context.Background(), e.st)
	if err != nil {
		t.Fatal(err)
	}
	if len(calls) != n {
		t.Fatalf("%d calls recorded, want %d", len(calls), n)
	}
}
