package connectors

import (
	"context"
	"fmt"
	"time"

	"github.com/ulule/limiter/v3"
)

// Quota returns a Config.Limit that counts calls in st: a Redis store
// shares each vendor's per-minute quota across every worker process, a
// memory store keeps it per process. A call over the quota waits for the
// next window, or returns the context's error when it ends first.
func Quota(st limiter.Store) func(ctx context.Context, key string, perMinute int) error {
	return func(ctx context.Context, key string, perMinute int) error {
		if perMinute <= 0 {
			return nil
		}
		rate := limiter.Rate{Period: time.Minute, Limit: int64(perMinute)}
		for {
			got, err := st.Get(ctx, "vendor-quota:"+key, rate)
			if err != nil {
				return fmt.Errorf("vendor quota %s: %w", key, err)
			}
			if !got.Reached {
				return nil
			}
			wait := time.Until(time.Unix(got.Reset, 0))
			if wait < 100*time.Millisecond {
				wait = 100 * time.Millisecond
			}
			t := time.NewTimer(wait)
			select {
			case <-ctx.Done():
				t.Stop()
				return ctx.Err()
			case <-t.C:
			}
		}
	}
}
