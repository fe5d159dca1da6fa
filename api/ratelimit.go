package api

import (
	"context"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/gin-gonic/gin"
	"github.com/ulule/limiter/v3"
	"github.com/ulule/limiter/v3/drivers/store/memory"

	"github.com/vigil-soc/vigil/settings"
)

// limitsCacheTTL bounds how stale the rate limits may be after an admin
// changes the rate_limits setting on another process.
const limitsCacheTTL = 5 * time.Second

// rateLimiter counts requests per principal and class in fixed one-minute
// windows. Counters live in this process unless a shared store (Redis,
// VIGIL_REDIS_URL) is given: without one, a principal can reach the limit
// once per API process behind a balancer.
type rateLimiter struct {
	store    limiter.Store
	settings *settings.Service

	mu       sync.Mutex
	limits   settings.RateLimits
	loadedAt time.Time
}

func newRateLimiter(svc *settings.Service, shared limiter.Store) *rateLimiter {
	st := shared
	if st == nil {
		st = memory.NewStoreWithOptions(limiter.StoreOptions{Prefix: "vigil", CleanUpInterval: time.Minute})
	}
	return &rateLimiter{
		store:    st,
		settings: svc,
		limits:   settings.DefaultRateLimits(),
	}
}

// current returns the configured limits, re-reading the setting at most
// every limitsCacheTTL; a failed read keeps the last good limits.
func (r *rateLimiter) current(ctx context.Context) settings.RateLimits {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.settings != nil && time.Since(r.loadedAt) >= limitsCacheTTL {
		if l, err := r.settings.RateLimits(ctx); err == nil {
			r.limits = l
		}
		r.loadedAt = time.Now()
	}
	return r.limits
}

// invalidate makes the next request re-read the setting.
func (r *rateLimiter) invalidate() {
	r.mu.Lock()
	r.loadedAt = time.Time{}
	r.mu.Unlock()
}

func (r *rateLimiter) rate(ctx context.Context, class LimitClass) limiter.Rate {
	l := r.current(ctx)
	n := l.ReadPerMinute
	switch class {
	case LimitWrite:
		n = l.WritePerMinute
	case LimitTriage:
		n = l.TriagePerMinute
	}
	return limiter.Rate{Period: time.Minute, Limit: int64(n)}
}

// rateLimit counts the request against its class for the calling
// principal (or client address when anonymous), sets the X-RateLimit
// headers and refuses with 429 beyond the limit.
func (s *server) rateLimit(class LimitClass) gin.HandlerFunc {
	return func(c *gin.Context) {
		who, _ := principalID(c)
		rate := s.limiter.rate(c, class)
		lc, err := s.limiter.store.Get(c, string(class)+"|"+who, rate)
		if err != nil {
			s.abortWithError(c, err)
			return
		}
		h := c.Writer.Header()
		h.Set("X-RateLimit-Limit", strconv.FormatInt(lc.Limit, 10))
		h.Set("X-RateLimit-Remaining", strconv.FormatInt(lc.Remaining, 10))
		h.Set("X-RateLimit-Reset", strconv.FormatInt(lc.Reset, 10))
		if lc.Reached {
			wait := max(lc.Reset-time.Now().Unix(), 1)
			h.Set("Retry-After", strconv.FormatInt(wait, 10))
			s.abortWithError(c, &Error{Status: http.StatusTooManyRequests, Code: CodeRateLimited,
				Message: "rate limit exceeded for " + string(class) + " requests; retry after " + strconv.FormatInt(wait, 10) + "s",
				Details: map[string]any{"limit": lc.Limit, "class": string(class), "retry_after": wait}})
			return
		}
		c.Next()
	}
}
