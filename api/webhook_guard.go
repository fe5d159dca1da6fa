package api

import (
	"net/http"
	"strconv"
	"time"

	"github.com/gin-gonic/gin"
	"github.com/ulule/limiter/v3"
	"github.com/ulule/limiter/v3/drivers/store/memory"
)

// DefaultWebhookFailuresPerMinute is how many failed deliveries (unknown
// source, bad or stale signature) one client address may make in a minute
// before the intake refuses its requests without looking at them.
const DefaultWebhookFailuresPerMinute = 30

// failedDeliveries counts refused webhook deliveries per client address.
// Only failures count: a sender with the secret is never slowed down by
// its own volume, since valid alerts queue instead.
type failedDeliveries struct {
	store limiter.Store
	rate  limiter.Rate
}

func newFailedDeliveries(perMinute int) *failedDeliveries {
	return &failedDeliveries{
		store: memory.NewStoreWithOptions(limiter.StoreOptions{Prefix: "vigil-webhook-fail", CleanUpInterval: time.Minute}),
		rate:  limiter.Rate{Period: time.Minute, Limit: int64(perMinute)},
	}
}

func failureKey(c *gin.Context) string { return "ip:" + c.ClientIP() }

// webhookThrottled answers 429 with Retry-After when the caller's address
// has used up its failed deliveries for the current minute. It only peeks,
// so the check costs a map lookup and nothing about the request is read.
func (s *server) webhookThrottled(c *gin.Context) error {
	lc, err := s.failed.store.Peek(c, failureKey(c), s.failed.rate)
	if err != nil || lc.Remaining > 0 {
		return err
	}
	wait := max(lc.Reset-time.Now().Unix(), 1)
	c.Header("Retry-After", strconv.FormatInt(wait, 10))
	refuseWithoutBody(c)
	return &Error{Status: http.StatusTooManyRequests, Code: CodeRateLimited,
		Message: "too many failed webhook deliveries from this address; retry after " + strconv.FormatInt(wait, 10) + "s",
		Details: map[string]any{"retry_after": wait}}
}

// deliveryFailed counts a failed delivery against the caller's address
// and passes the error on.
func (s *server) deliveryFailed(c *gin.Context, err error) error {
	_, _ = s.failed.store.Increment(c, failureKey(c), 1, s.failed.rate)
	return err
}

// refuseWithoutBody closes the connection after the answer, so that the
// HTTP server does not read what remains of a body the handler refused
// before reading (it would otherwise drain up to 256 KiB of it to keep
// the connection alive).
func refuseWithoutBody(c *gin.Context) {
	c.Header("Connection", "close")
}
