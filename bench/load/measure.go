package main

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"time"
)

// recorder collects per-operation latencies. Percentiles come from a sorted
// copy: with a few thousand samples per measurement, sorting is cheap and
// exact, so no histogram approximation is needed.
type recorder struct {
	mu      sync.Mutex
	samples []time.Duration
}

func (r *recorder) add(d time.Duration) {
	r.mu.Lock()
	r.samples = append(r.samples, d)
	r.mu.Unlock()
}

// sorted returns the samples in ascending order.
func (r *recorder) sorted() []time.Duration {
	r.mu.Lock()
	defer r.mu.Unlock()
	s := slices.Clone(r.samples)
	slices.Sort(s)
	return s
}

// percentile returns the nearest-rank p-th percentile (0 < p <= 100) of
// ascending samples, or 0 when there are none.
func percentile(sorted []time.Duration, p float64) time.Duration {
	if len(sorted) == 0 {
		return 0
	}
	rank := int(p/100*float64(len(sorted))+0.999999) - 1
	rank = max(0, min(rank, len(sorted)-1))
	return sorted[rank]
}

// stats summarises one measurement.
type stats struct {
	Ops      int           // measured operations attempted
	Failures int           // operations that returned an error
	Elapsed  time.Duration // wall time of the measured phase
	P50, P99 time.Duration // latency of successful operations
	FirstErr error         // first failure, to show what went wrong
}

// OpsPerSec counts successful operations only, so failing fast never looks
// like throughput.
func (s stats) OpsPerSec() float64 {
	if s.Elapsed <= 0 {
		return 0
	}
	return float64(s.Ops-s.Failures) / s.Elapsed.Seconds()
}

// opFunc performs operation number i. Indices are unique across the warm-up
// and the measured phase, so operations can derive unique keys from them.
type opFunc func(ctx context.Context, i int) error

// load describes how hard to push one measurement.
type load struct {
	N           int // measured operations
	Concurrency int
	Warmup      int // operations run first and not recorded
}

// measure runs the warm-up, then l.N operations on l.Concurrency workers,
// recording the latency of each. Warm-up failures abort the measurement:
// a path that cannot warm up is broken, not slow.
func measure(ctx context.Context, l load, op opFunc) (stats, error) {
	if l.Warmup > 0 {
		w := drive(ctx, 0, l.Warmup, l.Concurrency, op, nil)
		if w.FirstErr != nil {
			return stats{}, fmt.Errorf("warm-up: %d of %d failed, first: %w", w.Failures, l.Warmup, w.FirstErr)
		}
	}
	if err := ctx.Err(); err != nil {
		return stats{}, err
	}
	var rec recorder
	rec.samples = make([]time.Duration, 0, l.N)
	s := drive(ctx, l.Warmup, l.N, l.Concurrency, op, &rec)
	if err := ctx.Err(); err != nil {
		return stats{}, err
	}
	sorted := rec.sorted()
	s.P50, s.P99 = percentile(sorted, 50), percentile(sorted, 99)
	return s, nil
}

// drive runs ops first..first+n-1 on c workers that pull the next index from
// a shared counter, so a slow operation never leaves other workers idle.
func drive(ctx context.Context, first, n, c int, op opFunc, rec *recorder) stats {
	var (
		next     atomic.Int64
		failures atomic.Int64
		errOnce  sync.Once
		firstErr error
		wg       sync.WaitGroup
	)
	next.Store(int64(first))
	end := int64(first + n)
	start := time.Now()
	for range max(1, min(c, n)) {
		wg.Go(func() {
			for ctx.Err() == nil {
				i := next.Add(1) - 1
				if i >= end {
					return
				}
				t0 := time.Now()
				err := op(ctx, int(i))
				d := time.Since(t0)
				if err != nil {
					failures.Add(1)
					errOnce.Do(func() { firstErr = err })
					continue
				}
				if rec != nil {
					rec.add(d)
				}
			}
		})
	}
	wg.Wait()
	return stats{Ops: n, Failures: int(failures.Load()), Elapsed: time.Since(start), FirstErr: firstErr}
}
