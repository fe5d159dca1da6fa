package settings

import (
	"context"
	"time"
)

// GeneralCacheTTL bounds how long CachedGeneral serves the general setting
// from memory. A write through this Service applies at once; one made by
// another process within this time.
const GeneralCacheTTL = time.Second

// LLMCacheTTL bounds, likewise, how long CachedLLM serves the LLM setting.
const LLMCacheTTL = time.Second

// CachedGeneral is General read at most every GeneralCacheTTL, for paths
// taken once per alert; a failed read is not cached.
func (s *Service) CachedGeneral(ctx context.Context) (General, error) {
	return s.general.Get(ctx, GeneralCacheTTL, s.General)
}

// CachedLLM is LLM read at most every LLMCacheTTL, for paths taken once
// per triage; a failed read is not cached.
func (s *Service) CachedLLM(ctx context.Context) (LLM, error) {
	return s.llm.Get(ctx, LLMCacheTTL, s.LLM)
}
