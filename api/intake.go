package api

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io"
	"net/http"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gin-gonic/gin"
	"go.temporal.io/sdk/client"

	"github.com/vigil-soc/vigil/intake"
	"github.com/vigil-soc/vigil/store"
)

// DefaultIntakeMaxInFlight is how many alerts the intake handles at once
// before it queues new ones instead of processing them inline.
const DefaultIntakeMaxInFlight = 64

// engineProbeTTL bounds how often the intake asks Temporal whether it is up.
const engineProbeTTL = 2 * time.Second

// intakeState tracks load and the engine's health for the intake path.
type intakeState struct {
	inFlight atomic.Int64

	mu sync.Mutex
	// engineDown is false until a probe fails, so alerts arriving while
	// the first probe runs take the inline path.
	engineDown bool
	checkedAt  time.Time
	probing    bool
}

// engineUp reports, from a probe at most engineProbeTTL old, whether
// Temporal answers. One request probes at a time; the others answer from
// the last probe rather than wait for it, since a probe of a dead server
// takes its whole timeout.
func (s *server) engineUp(ctx context.Context) bool {
	st := &s.intake
	st.mu.Lock()
	if st.probing || time.Since(st.checkedAt) < engineProbeTTL {
		up := !st.engineDown
		st.mu.Unlock()
		return up
	}
	st.probing = true
	st.mu.Unlock()
	pctx, cancel := context.WithTimeout(ctx, 500*time.Millisecond)
	defer cancel()
	_, err := s.temporal.CheckHealth(pctx, &client.CheckHealthRequest{})
	st.mu.Lock()
	defer st.mu.Unlock()
	st.engineDown, st.checkedAt, st.probing = err != nil, time.Now(), false
	return err == nil
}

// receiveWebhook verifies and admits one delivery. Nothing is
// acknowledged before it is durable: "accepted" once its incidents are
// committed, "queued" once the raw delivery is in the intake queue (when
// the engine is unreachable, the intake is saturated, or earlier alerts
// still wait, so order is kept).
//
// The checks run cheapest first, so that an unauthenticated caller costs
// little: an address with too many failed deliveries is refused outright,
// then the source must exist and the request must carry its credentials
// (well-formed signature headers, or the token) before the body is read or
// any HMAC computed. Sources come from a short-lived cache (see
// sourceCache); the incidents of concurrent alerts share commits (see
// newAlertCommits).
func (s *server) receiveWebhook(c *gin.Context) (reply, error) {
	return s.receive(c, "")
}

// receiveWebhookToken is the intake of url_token sources, whose senders
// cannot set headers: the token is the path's last segment.
func (s *server) receiveWebhookToken(c *gin.Context) (reply, error) {
	return s.receive(c, c.Param("token"))
}

func (s *server) receive(c *gin.Context, pathToken string) (reply, error) {
	source := c.Param("source")
	if err := s.webhookThrottled(c); err != nil {
		return reply{}, s.webhookError("unknown", "throttled", err)
	}
	// Label by registered sources only: the path is the sender's to choose.
	cs, err := s.cachedWebhookSource(c, source)
	if errors.Is(err, store.ErrNotFound) {
		s.metrics.webhookReceived.WithLabelValues("unknown").Inc()
		refuseWithoutBody(c)
		return reply{}, s.deliveryFailed(c, s.webhookError("unknown", "unknown_source",
			newError(http.StatusNotFound, CodeUnknownSource, "no webhook source named "+strconv.Quote(source)+" is registered")))
	}
	var sealed *secretError
	if errors.As(err, &sealed) {
		s.log.Error("webhook secret cannot be decrypted; check VIGIL_SECRET_KEY", "source", source, "err", err)
		return reply{}, s.webhookError(source, "secret", newError(http.StatusServiceUnavailable, CodeUnavailable, "the source's secret cannot be read"))
	}
	if err != nil {
		return reply{}, s.webhookError("unknown", "store", err)
	}
	src := cs.src
	s.metrics.webhookReceived.WithLabelValues(source).Inc()
	signed := src.Signed()
	var mac []byte
	sig, ts := c.GetHeader("X-Webhook-Signature"), c.GetHeader("X-Webhook-Timestamp")
	if signed {
		if pathToken != "" {
			refuseWithoutBody(c)
			return reply{}, s.deliveryFailed(c, s.webhookError(source, "auth",
				newError(http.StatusUnauthorized, CodeInvalidToken, "this source takes signed deliveries on /api/webhooks/"+source+", not a token")))
		}
		if mac, err = intake.CheckHeaders(sig, ts); err != nil {
			refuseWithoutBody(c)
			return reply{}, s.deliveryFailed(c, s.webhookError(source, "signature", signatureError(err)))
		}
	} else if err := checkToken(c, src, pathToken); err != nil {
		refuseWithoutBody(c)
		return reply{}, s.deliveryFailed(c, s.webhookError(source, "auth", err))
	}
	s.intake.inFlight.Add(1)
	defer s.intake.inFlight.Add(-1)
	body, err := io.ReadAll(c.Request.Body)
	if err != nil {
		return reply{}, s.webhookError(source, "read", err)
	}
	var replay *store.Replay
	if signed {
		if err := intake.Verify(cs.secret, sig, ts, body, time.Now()); err != nil {
			return reply{}, s.deliveryFailed(c, s.webhookError(source, "signature", signatureError(err)))
		}
		replay = &store.Replay{Key: replayKey(source, mac), ExpiresAt: signatureExpiry(ts)}
	}
	if hasNUL(body) {
		return reply{}, s.webhookError(source, "format", errNUL)
	}
	alerts, err := intake.ParseSourceDelivery(source, src, cs.mapping, body)
	if err != nil {
		return reply{}, s.webhookError(source, "format", formatError(err))
	}
	if s.shouldQueue(c) {
		it, err := s.store.EnqueueAlert(c, source, body, replay)
		if err != nil {
			return reply{}, s.webhookError(source, "replay", replayError(err))
		}
		s.alertQueued()
		s.wakeDispatcher()
		return reply{status: http.StatusAccepted, raw: true, body: gin.H{
			"status": "queued", "queue_id": it.ID,
			"message": "alert stored durably; its incident will be created when capacity returns",
		}}, nil
	}
	return s.admit(c, src, alerts, replay)
}

// shouldQueue sends an alert to the durable queue instead of processing it
// inline when the engine is down, the intake is saturated, or earlier
// alerts are still queued.
func (s *server) shouldQueue(ctx context.Context) bool {
	if s.intake.inFlight.Load() > int64(s.opts.IntakeMaxInFlight) || !s.engineUp(ctx) {
		return true
	}
	return s.alertsWaiting(ctx)
}

func (s *server) wakeDispatcher() {
	if s.opts.Dispatcher != nil {
		s.opts.Dispatcher.Wake()
	}
}

// webhookError counts a refused alert and passes the error on.
func (s *server) webhookError(source, reason string, err error) error {
	s.metrics.webhookErrors.WithLabelValues(source, reason).Inc()
	return err
}

func signatureError(err error) error {
	if errors.Is(err, intake.ErrTimestampExpired) || errors.Is(err, intake.ErrTimestampInFuture) {
		return newError(http.StatusUnauthorized, CodeTimestampExpired,
			"X-Webhook-Timestamp must be within 5 minutes before and 60 seconds after the server's time")
	}
	return newError(http.StatusUnauthorized, CodeInvalidSignature,
		"X-Webhook-Signature must be sha256=<hex HMAC-SHA256 of \"<timestamp>.<raw body>\" with the source's secret>")
}

func formatError(err error) error {
	var fe *intake.FormatError
	if errors.As(err, &fe) {
		return &Error{Status: http.StatusUnprocessableEntity, Code: CodeValidation, Message: fe.Message,
			Details: map[string]any{"expected": fe.Expected}}
	}
	return err
}

func replayError(err error) error {
	if errors.Is(err, store.ErrReplay) {
		return newError(http.StatusConflict, CodeReplay, "this signature was already accepted; sign each delivery afresh")
	}
	return err
}

// replayKey names an accepted delivery by its source and the MAC bytes
// its signature carries, not by the header text: "SHA256=", upper-case
// hex and surrounding space all spell the same MAC and must all be
// recognised as the same delivery.
func replayKey(source string, mac []byte) string {
	h := sha256.New()
	h.Write([]byte(source))
	h.Write([]byte{0})
	h.Write(mac)
	return hex.EncodeToString(h.Sum(nil))
}

// signatureExpiry is when a signature's timestamp leaves the window, after
// which the window check alone refuses it.
func signatureExpiry(ts string) time.Time {
	sec, _ := strconv.ParseInt(ts, 10, 64)
	return time.Unix(sec, 0).Add(intake.MaxAge + intake.MaxSkew)
}
