// Package groupcommit shares writes among concurrent callers: what callers
// hand in while a write is under way waits for the next one, so a burst
// costs a few commits instead of one each. A batch is never held back
// waiting for company, and each caller is answered only once the write
// holding its items has returned, so nothing counts as done before it is
// durable.
package groupcommit

import (
	"context"
	"sync"
	"time"
)

// Batcher writes items in shared batches through Write.
type Batcher[In, Out any] struct {
	// Write stores one batch and answers one outcome per item, in order.
	// It runs on a context of its own, bounded by Timeout: a batch is not
	// any one caller's, so a caller that gives up fails no one else.
	Write func(ctx context.Context, batch []In) []Out
	// MaxBatch bounds the items of one write.
	MaxBatch int
	// MaxWriters bounds the writes under way at once (at least one).
	MaxWriters int
	// Timeout bounds one write.
	Timeout time.Duration

	mu      sync.Mutex
	pending []*item[In, Out]
	writers int
}

type item[In, Out any] struct {
	in   In
	out  Out
	done chan struct{}
}

// Do queues items, together and in order, for the next batch and returns
// their outcomes once the write holding them has returned.
func (b *Batcher[In, Out]) Do(items ...In) []Out {
	queued := make([]*item[In, Out], len(items))
	for i, in := range items {
		queued[i] = &item[In, Out]{in: in, done: make(chan struct{})}
	}
	b.mu.Lock()
	b.pending = append(b.pending, queued...)
	if b.writers < max(b.MaxWriters, 1) {
		b.writers++
		go b.writeAll()
	}
	b.mu.Unlock()
	out := make([]Out, len(queued))
	for i, it := range queued {
		<-it.done
		out[i] = it.out
	}
	return out
}

// writeAll writes what is pending, batch after batch, until nothing is
// left.
func (b *Batcher[In, Out]) writeAll() {
	for {
		b.mu.Lock()
		n := min(len(b.pending), max(b.MaxBatch, 1))
		if n == 0 {
			b.writers--
			b.mu.Unlock()
			return
		}
		batch := b.pending[:n:n]
		b.pending = b.pending[n:]
		b.mu.Unlock()
		in := make([]In, n)
		for i, it := range batch {
			in[i] = it.in
		}
		ctx, cancel := context.WithTimeout(context.Background(), b.Timeout)
		outs := b.Write(ctx, in)
		cancel()
		for i, it := range batch {
			if i < len(outs) {
				it.out = outs[i]
			}
			close(it.done)
		}
	}
}
