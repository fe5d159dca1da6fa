package dispatch

import (
	"cmp"
	"context"
	"errors"
	"log/slog"
	"sync"
	"time"

	"github.com/vigil-soc/vigil/intake"
	"github.com/vigil-soc/vigil/settings"
	"github.com/vigil-soc/vigil/store"
)

// Dispatcher tuning.
const (
	pollInterval   = 500 * time.Millisecond
	retryBase      = time.Second
	retryMax       = 30 * time.Second
	maxAttempts    = 1000 // about eight hours of retries at the cap
	dispatchTimout = 30 * time.Second
)

// Dispatcher drains the intake queue in order: queued alerts become
// incidents, queued triage entries start their workflows. It runs in every
// API process; entries are processed idempotently, so two dispatchers
// racing for one entry cannot duplicate its effect.
type Dispatcher struct {
	Store    *store.Store
	Launcher *Launcher
	Settings *settings.Service
	Log      *slog.Logger
	// IntelCache, when set, has its expired rows purged at every sweep,
	// so the threat-intelligence cache stays bounded.
	IntelCache CachePurger
	wake       chan struct{}
	inflight   *inflight
	done       *completions
	running    sync.WaitGroup // entries being handled in the background
}

// CachePurger deletes expired cache rows and says how many it deleted.
type CachePurger interface {
	PurgeExpired(ctx context.Context) (int64, error)
}

// NewDispatcher builds a dispatcher.
func NewDispatcher(st *store.Store, l *Launcher, svc *settings.Service, log *slog.Logger) *Dispatcher {
	return &Dispatcher{Store: st, Launcher: l, Settings: svc, Log: log, wake: make(chan struct{}, 1), inflight: newInflight(),
		done: newCompletions(st)}
}

// Wake asks the dispatcher to look at the queue now rather than at its
// next poll.
func (d *Dispatcher) Wake() {
	select {
	case d.wake <- struct{}{}:
	default:
	}
}

// sweepInterval is how often accepted webhook signatures whose window has
// closed are forgotten and expired intel cache rows deleted.
const sweepInterval = time.Minute

// Run processes the queue until ctx ends, and meanwhile sweeps what has
// expired (see sweep).
func (d *Dispatcher) Run(ctx context.Context) {
	sweep := time.NewTicker(sweepInterval)
	defer sweep.Stop()
	defer d.running.Wait()
	for {
		for d.step(ctx) {
		}
		select {
		case <-ctx.Done():
			return
		case <-sweep.C:
			d.sweep(ctx)
		case <-d.wake:
		case <-time.After(pollInterval):
		}
	}
}

// sweep forgets webhook signatures that can no longer be replayed and
// purges expired intel cache rows.
func (d *Dispatcher) sweep(ctx context.Context) {
	if err := d.Store.SweepReplays(ctx); err != nil {
		d.Log.Warn("sweep webhook replay cache", "err", err)
	}
	if d.IntelCache == nil {
		return
	}
	if n, err := d.IntelCache.PurgeExpired(ctx); err != nil {
		d.Log.Warn("purge intel cache", "err", err)
	} else if n > 0 {
		d.Log.Debug("purged expired intel cache rows", "rows", n)
	}
}

// dispatchParallel bounds how many queued automation entries (triage,
// playbook runs) are being started at once.
const dispatchParallel = 64

// step takes the next due entries and reports whether it took any.
// Queued alerts are handled one at a time, in order, since their incidents
// are numbered in arrival order, all those of one read of the queue in
// turn; the automation entries among them are independent of one another
// and are started in the background, up to dispatchParallel at a time,
// each waking the dispatcher when done. An entry that fails is due again
// after a back-off and does not hold back the others. While the kill
// switch is active only alerts are taken: turning an alert into an
// incident is record keeping, starting triage is automation.
func (d *Dispatcher) step(ctx context.Context) bool {
	if ctx.Err() != nil {
		return false
	}
	kinds := []string{store.IntakeAlert, store.IntakeTriage, store.IntakePlaybook, store.IntakeAutoRun}
	if ks, err := d.Store.KillSwitch(ctx); err == nil && ks.Active {
		kinds = []string{store.IntakeAlert}
	}
	items, err := d.Store.NextIntakes(ctx, 2*dispatchParallel, kinds...)
	if err != nil {
		d.Log.Error("read intake queue", "err", err)
		return false
	}
	took, alerts := false, false
	for i := range items {
		it := &items[i]
		if it.Kind == store.IntakeAlert {
			// In order: one that is not done holds back the rest until
			// the next poll.
			if !d.handle(ctx, it) {
				return false
			}
			took, alerts = true, true
			continue
		}
		if alerts {
			return true // automation waits for a fresh look at the kill switch
		}
		if !d.inflight.begin(it.Seq) {
			continue
		}
		took = true
		d.running.Go(func() {
			defer d.Wake()
			defer d.inflight.end(it.Seq)
			d.handle(ctx, it)
		})
	}
	return took
}

// inflight is the set of queue entries being handled in the background,
// bounded by dispatchParallel.
type inflight struct {
	mu    sync.Mutex
	seqs  map[int64]bool
	slots chan struct{}
}

func newInflight() *inflight {
	return &inflight{seqs: map[int64]bool{}, slots: make(chan struct{}, dispatchParallel)}
}

// begin claims seq, waiting for a free slot; it reports false when seq is
// already being handled.
func (f *inflight) begin(seq int64) bool {
	f.mu.Lock()
	if f.seqs[seq] {
		f.mu.Unlock()
		return false
	}
	f.seqs[seq] = true
	f.mu.Unlock()
	f.slots <- struct{}{}
	return true
}

func (f *inflight) end(seq int64) {
	<-f.slots
	f.mu.Lock()
	delete(f.seqs, seq)
	f.mu.Unlock()
}

// handle processes one entry and records the outcome: done, or due again
// after a back-off. It reports whether the entry is done; the queued
// alerts after one that is not wait for it, until the next poll.
func (d *Dispatcher) handle(ctx context.Context, it *store.IntakeItem) bool {
	pctx, cancel := context.WithTimeout(ctx, dispatchTimout)
	defer cancel()
	incidentID, err := d.process(pctx, it)
	if err != nil {
		delay := min(retryBase<<min(it.Attempts, 5), retryMax)
		d.Log.Warn("intake entry will be retried", "seq", it.Seq, "kind", it.Kind, "attempt", it.Attempts+1, "in", delay, "err", err)
		if rerr := d.Store.RetryIntake(ctx, it.Seq, err.Error(), delay, maxAttempts); rerr != nil {
			d.Log.Error("record intake retry", "seq", it.Seq, "err", rerr)
		}
		return false
	}
	if err := d.done.complete(it.Seq, incidentID); err != nil {
		d.Log.Error("complete intake entry", "seq", it.Seq, "err", err)
		return false
	}
	return true
}

func (d *Dispatcher) process(ctx context.Context, it *store.IntakeItem) (string, error) {
	switch it.Kind {
	case store.IntakeAlert:
		return d.createIncident(ctx, it)
	case store.IntakeTriage:
		err := d.Launcher.StartQueuedTriage(ctx, TriageRequest{IncidentID: it.IncidentID,
			RequestedBy: store.QueuedTriageRequester(it.Source), Automated: true, TriageID: it.ID})
		if errors.Is(err, store.ErrNotFound) {
			return "", nil // deleted meanwhile: nothing left to triage
		}
		return it.IncidentID, err
	case store.IntakePlaybook, store.IntakeAutoRun:
		return d.runQueuedPlaybooks(ctx, it)
	}
	return "", nil
}

// createIncident turns a queued delivery into its incidents (or
// resolutions); each alert's incident is marked by the queue entry's id
// (AlertIntakeID), so a retry finds it instead of creating another. It
// answers the first alert's incident.
func (d *Dispatcher) createIncident(ctx context.Context, it *store.IntakeItem) (string, error) {
	src, err := d.Store.GetWebhookSource(ctx, it.Source)
	if err != nil && !errors.Is(err, store.ErrNotFound) {
		return "", err
	}
	automate, book, resolve := false, "", false
	if src != nil {
		automate, book, resolve = src.AutoTriage, src.Playbook, src.ResolveIncidents
	}
	mapping, err := intake.CompileSourceMapping(src)
	if err == nil {
		var alerts []intake.Alert
		alerts, err = intake.ParseSourceDelivery(it.Source, src, mapping, []byte(it.Payload))
		if err == nil {
			return d.admitAlerts(ctx, it, alerts, automate, book, resolve)
		}
	}
	// It was validated when accepted; a payload that no longer parses
	// (its source changed meanwhile) is kept, failed, for an operator.
	_ = d.Store.RetryIntake(ctx, it.Seq, err.Error(), 0, 1)
	return "", nil
}

func (d *Dispatcher) admitAlerts(ctx context.Context, it *store.IntakeItem, alerts []intake.Alert, automate bool, book string, resolve bool) (string, error) {
	first := ""
	for i, a := range alerts {
		if a.Resolved {
			inc, _, err := d.Store.ResolveAlertIncident(ctx, intake.AlertResolution(a, it.Source, resolve))
			if errors.Is(err, store.ErrNotFound) {
				continue
			}
			if err != nil {
				return "", err
			}
			first = cmp.Or(first, inc.ID)
			continue
		}
		inc, _, err := d.Store.CreateIncidentFromAlert(ctx,
			intake.AlertToIncident(a, it.Source, intake.DedupWindow(ctx, d.Settings), intake.AlertIntakeID(it.ID, i), automate, book))
		if err != nil {
			return "", err
		}
		first = cmp.Or(first, inc.ID)
	}
	return first, nil
}
