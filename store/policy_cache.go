package store

import (
	"context"
	"slices"
	"sync"
	"time"
)

// PolicyCacheTTL bounds how long CachedEnabledPolicies serves the enabled
// rules from memory. A rule written through this Store applies at once;
// one written by another process within this time.
const PolicyCacheTTL = time.Second

// policyCache holds the enabled rules last read for the action path.
type policyCache struct {
	mu       sync.Mutex
	rules    []Policy
	loadedAt time.Time
	gen      uint64
}

// forget drops the cached rules, so the next read goes to the database.
func (c *policyCache) forget() {
	c.mu.Lock()
	c.rules, c.loadedAt = nil, time.Time{}
	c.gen++
	c.mu.Unlock()
}

// CachedEnabledPolicies is ListEnabledPolicies read at most every
// PolicyCacheTTL, for paths taken once per action; a failed read is not
// cached, and a read that a rule write overtook is answered but not kept.
// The caller gets its own copy.
func (s *Store) CachedEnabledPolicies(ctx context.Context) ([]Policy, error) {
	c := s.policies
	c.mu.Lock()
	if !c.loadedAt.IsZero() && time.Since(c.loadedAt) < PolicyCacheTTL {
		rules := slices.Clone(c.rules)
		c.mu.Unlock()
		return rules, nil
	}
	gen := c.gen
	c.mu.Unlock()
	rules, err := s.ListEnabledPolicies(ctx)
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	if c.gen == gen {
		c.rules, c.loadedAt = slices.Clone(rules), time.Now()
	}
	c.mu.Unlock()
	return rules, nil
}
