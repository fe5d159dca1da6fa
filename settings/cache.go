package settings

import (
	"context"
	"sync"
	"time"
)

// GeneralCacheTTL bounds how long CachedGeneral serves the general setting
// from memory. A write through this Service applies at once; one made by
// another process within this time.
const GeneralCacheTTL = time.Second

// LLMCacheTTL bounds, likewise, how long CachedLLM serves the LLM setting.
const LLMCacheTTL = time.Second

// ttlCache holds the last value of a setting read for hot paths.
type ttlCache[T any] struct {
	mu       sync.Mutex
	value    T
	loadedAt time.Time
	gen      uint64
}

func (c *ttlCache[T]) forget() {
	c.mu.Lock()
	c.loadedAt = time.Time{}
	c.gen++
	c.mu.Unlock()
}

// get answers the cached value while it is younger than ttl, and
// otherwise reads it with load; a failed read is not cached, and a read
// that a forget overtook is answered but not kept.
func (c *ttlCache[T]) get(ctx context.Context, ttl time.Duration, load func(context.Context) (T, error)) (T, error) {
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

// CachedGeneral is General read at most every GeneralCacheTTL, for paths
// taken once per alert; a failed read is not cached.
func (s *Service) CachedGeneral(ctx context.Context) (General, error) {
	return s.general.get(ctx, GeneralCacheTTL, s.General)
}

// CachedLLM is LLM read at most every LLMCacheTTL, for paths taken once
// per triage; a failed read is not cached.
func (s *Service) CachedLLM(ctx context.Context) (LLM, error) {
	return s.llm.get(ctx, LLMCacheTTL, s.LLM)
}
