package store

import (
	"context"
	"slices"
	"time"
)

// PolicyCacheTTL bounds how long CachedEnabledPolicies serves the enabled
// rules from memory. A rule written through this Store applies at once;
// one written by another process within this time.
const PolicyCacheTTL = time.Second

// CachedEnabledPolicies is ListEnabledPolicies read at most every
// PolicyCacheTTL, for paths taken once per action; a failed read is not
// cached, and a read that a rule write overtook is answered but not kept.
// The caller gets its own copy.
func (s *Store) CachedEnabledPolicies(ctx context.Context) ([]Policy, error) {
	rules, err := s.policies.Get(ctx, PolicyCacheTTL, s.ListEnabledPolicies)
	if err != nil {
		return nil, err
	}
	return slices.Clone(rules), nil
}
