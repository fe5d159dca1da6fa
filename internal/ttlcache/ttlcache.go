// Package ttlcache holds one value read from slower storage for a short
// time, for paths taken once per alert or per action.
package ttlcache

import (
	"context"
	"sync"
	"time"
)

// Value is the last value read, served while younger than a time to live.
// The zero Value is empty and ready for use.
type Value[T any] struct {
	mu       sync.Mutex
	value    T
	loadedAt time.Time
	// gen counts Forget calls: a read that began before one is answered
	// but not kept.
	gen uint64
}

// Forget drops the held value, so the next Get reads it again.
func (c *Value[T]) Forget() {
	c.mu.Lock()
	var zero T
	c.value, c.loadedAt = zero, time.Time{}
	c.gen++
	c.mu.Unlock()
}

// Get answers the held value while it is younger than ttl, and otherwise
// reads it with load; a failed read is not kept, and a read that a Forget
// overtook is answered but not kept. The value is shared between callers:
// one holding a slice or map must copy it before changing it.
func (c *Value[T]) Get(ctx context.Context, ttl time.Duration, load func(context.Context) (T, error)) (T, error) {
	c.mu.Lock()
	if !c.loadedAt.IsZero() && time.Since(c.loadedAt) < ttl {
		v := c.value
		c.mu.Unlock()
		return v, nil
	}
	gen := c.gen
	c.mu.Unlock()
	v, err := load(ctx)
	if err != nil {
		var zero T
		return zero, err
	}
	c.mu.Lock()
	if c.gen == gen {
		c.value, c.loadedAt = v, time.Now()
	}
	c.mu.Unlock()
	return v, nil
}
