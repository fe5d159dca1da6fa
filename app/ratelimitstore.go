package app

import (
	"context"
	"fmt"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/ulule/limiter/v3"
	sredis "github.com/ulule/limiter/v3/drivers/store/redis"
)

// RateLimitStore connects to VIGIL_REDIS_URL so that every API process
// counts requests against the same limits; nil (no URL) keeps counters in
// each process.
func RateLimitStore(ctx context.Context, cfg Config) (limiter.Store, func(), error) {
	if cfg.RedisURL == "" {
		return nil, func() {}, nil
	}
	opts, err := redis.ParseURL(cfg.RedisURL)
	if err != nil {
		return nil, nil, fmt.Errorf("VIGIL_REDIS_URL: %w", err)
	}
	rc := redis.NewClient(opts)
	pingCtx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	if err := rc.Ping(pingCtx).Err(); err != nil {
		_ = rc.Close()
		return nil, nil, fmt.Errorf("VIGIL_REDIS_URL: redis at %s does not answer: %w", opts.Addr, err)
	}
	st, err := sredis.NewStoreWithOptions(rc, limiter.StoreOptions{Prefix: cfg.RedisPrefix, MaxRetry: 3})
	if err != nil {
		_ = rc.Close()
		return nil, nil, fmt.Errorf("redis rate limit store: %w", err)
	}
	return st, func() { _ = rc.Close() }, nil
}
