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

// generalCache holds the last general setting read for hot paths.
type generalCache struct {
	mu       sync.Mutex
	value    General
	loadedAt time.Time
	gen      uint64
}

func (c *generalCache) forget() {
	c.mu.Lock()
	c.loadedAt = time.Time{}
	c.gen++
	c.mu.Unlock()
}

// CachedGeneral is General read at most every GeneralCacheTTL, for paths
// taken once per alert; a failed read is not cached.
func (s *Service) CachedGeneral(ctx context.Context) (General, error) {
	c := &s.general
	c.mu.Lock()
	if !c.loadedAt.IsZero() && time.Since(c.loadedAt) < GeneralCacheTTL {
		v := c.value
		c.mu.Unlock()
		return v, nil
	}
	gen := c.gen
	c.mu.Unlock()
	g, err := s.General(ctx)
	if err != nil {
		return General{}, err
	}
	c.mu.Lock()
	if c.gen == gen {
		c.value, c.loadedAt = g, time.Now()
	}
	c.mu.Unlock()
	return g, nil
}
