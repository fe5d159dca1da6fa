package main

import (
	"context"
	"fmt"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"github.com/vigil-soc/vigil/bench/internal/verdict"
	"github.com/vigil-soc/vigil/connectors"
)

// killSwitchGoal bounds how late after the activation a connector call may
// still start.
const killSwitchGoal = 100 * time.Millisecond

// killSwitchTail is how long actions keep being requested after the
// activation, so calls that would slip through have the time to.
const killSwitchTail = time.Second

// ticketStarts wraps the simulated ticketing connector and keeps the start
// time of every call, taken before the call does anything.
type ticketStarts struct {
	inner connectors.Ticketing
	mu    sync.Mutex
	at    []time.Time
}

// CreateTicket implements connectors.Ticketing.
func (t *ticketStarts) CreateTicket(ctx context.Context, key string, tk connectors.Ticket) (connectors.Result, error) {
	now := time.Now()
	t.mu.Lock()
	t.at = append(t.at, now)
	t.mu.Unlock()
	return t.inner.CreateTicket(ctx, key, tk)
}

// between returns the start times after from and before to.
func (t *ticketStarts) between(from, to time.Time) []time.Time {
	t.mu.Lock()
	defer t.mu.Unlock()
	var out []time.Time
	for _, at := range t.at {
		if at.After(from) && at.Before(to) {
			out = append(out, at)
		}
	}
	return out
}

// since counts the calls started after from.
func (t *ticketStarts) since(from time.Time) int {
	return len(t.between(from, time.Now()))
}

// killSwitchUnderLoad keeps create_ticket actions (no approval) flowing on
// conc clients, activates the kill switch through the API once connector
// calls are running, keeps requesting for killSwitchTail, and reports how
// late after the activation was answered the last connector call started.
// The switch is deactivated afterwards; every request must then end and
// every action reach its connector.
func (h *harness) killSwitchUnderLoad(ctx context.Context, conc int) (verdict.Verdict, error) {
	const path = "kill switch activation → last connector call start, under load"
	var (
		stop     atomic.Bool
		failures atomic.Int64
		errOnce  sync.Once
		firstErr error
		sent     atomic.Int64
		accepted atomic.Int64
		wg       sync.WaitGroup
	)
	begun := time.Now()
	for range conc {
		wg.Go(func() {
			for !stop.Load() && ctx.Err() == nil {
				i := sent.Add(1)
				_, _, err := h.call(http.MethodPost, "/api/actions/execute", h.requester,
					map[string]any{"action": "create_ticket", "parameters": map[string]any{"title": fmt.Sprintf("kill switch %d", i)}})
				if err != nil {
					failures.Add(1)
					errOnce.Do(func() { firstErr = err })
					continue
				}
				accepted.Add(1)
			}
		})
	}
	finish := func() error {
		stop.Store(true)
		wg.Wait()
		if n := failures.Load(); n > 0 {
			return fmt.Errorf("kill switch under load: %d of %d requests failed, first: %w", n, sent.Load(), firstErr)
		}
		return nil
	}
	// Activate only once calls are running on every client's behalf.
	for h.tickets.since(begun) < 2*conc {
		if time.Since(begun) > time.Minute || failures.Load() > 0 {
			return verdict.Verdict{}, fmt.Errorf("no connector calls under load after %s (%v)", time.Since(begun).Round(time.Second), finish())
		}
		time.Sleep(10 * time.Millisecond)
	}
	before := h.tickets.since(begun)
	activating := time.Now()
	_, _, err := h.call(http.MethodPost, "/api/kill-switch/activate", h.admin, map[string]any{"reason": "bench: kill switch under load"})
	active := time.Now()
	if err != nil {
		return verdict.Verdict{}, fmt.Errorf("activate: %w (%v)", err, finish())
	}
	time.Sleep(killSwitchTail)
	stop.Store(true)
	requested := sent.Load()
	// Calls that start once the switch is off again do not count.
	deactivating := time.Now()
	_, _, deErr := h.call(http.MethodPost, "/api/kill-switch/deactivate", h.admin, map[string]any{"reason": "bench done"})
	if err := finish(); err != nil {
		return verdict.Verdict{}, err
	}
	if deErr != nil {
		return verdict.Verdict{}, fmt.Errorf("deactivate: %w", deErr)
	}
	// The held actions run now; wait for them, so they neither go missing
	// nor load the measurements that follow.
	for h.tickets.since(begun) < int(accepted.Load()) {
		if time.Since(deactivating) > 2*time.Minute {
			return verdict.Verdict{}, fmt.Errorf("after deactivation: %d of %d actions reached their connector", h.tickets.since(begun), accepted.Load())
		}
		time.Sleep(50 * time.Millisecond)
	}

	held := h.tickets.between(active, deactivating)
	afterRequest := len(h.tickets.between(activating, deactivating))
	var lag time.Duration
	for _, at := range held {
		lag = max(lag, at.Sub(active))
	}
	vigil := fmt.Sprintf("%s (%d calls started after the answer, %d after the request; %d calls before it, %d actions requested at C=%d; activation answered in %s)",
		msText(lag), len(held), afterRequest, before, requested, conc, msText(active.Sub(activating)))
	fmt.Printf("\n## Kill switch under load\n\n%s: %s\n", path, vigil)
	return verdict.Verdict{Path: path, Vigil: vigil, Baseline: verdict.None, Goal: fmt.Sprintf("≤ %d ms", killSwitchGoal.Milliseconds()),
		Met: verdict.YesNo(lag <= killSwitchGoal)}, nil
}

func msText(d time.Duration) string { return ms(d) + " ms" }
