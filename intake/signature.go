package intake

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"strconv"
	"strings"
	"time"
)

// Errors returned by Verify. They are deliberately coarse: a sender that
// fails the check learns which rule it broke but nothing about the secret.
var (
	// ErrInvalidSignature means the signature header is missing or
	// malformed, or the HMAC does not match.
	ErrInvalidSignature = errors.New("invalid signature")
	// ErrTimestampExpired means the signed timestamp is older than MaxAge.
	ErrTimestampExpired = errors.New("timestamp expired")
	// ErrTimestampInFuture means the signed timestamp is more than MaxSkew
	// ahead of the receiver's clock.
	ErrTimestampInFuture = errors.New("timestamp in the future")
	// ErrTimestampInvalid means the timestamp header is missing or not unix
	// seconds.
	ErrTimestampInvalid = errors.New("invalid timestamp")
)

const (
	// MaxAge is how old a signed request may be; older ones are refused so
	// that a captured request cannot be replayed later.
	MaxAge = 5 * time.Minute
	// MaxSkew is how far ahead of the receiver's clock a sender's clock may
	// run. Without a bound, a request stamped far in the future would stay
	// replayable until that time came.
	MaxSkew = 60 * time.Second
)

const signaturePrefix = "sha256="

// Sign returns the X-Webhook-Signature value "sha256=<hex>" for body sent at
// unix time ts: the HMAC-SHA256 with secret of "<ts>.<body>".
func Sign(secret string, ts int64, body []byte) string {
	return signaturePrefix + hex.EncodeToString(mac(secret, strconv.FormatInt(ts, 10), body))
}

func mac(secret, ts string, body []byte) []byte {
	h := hmac.New(sha256.New, []byte(secret))
	h.Write([]byte(ts))
	h.Write([]byte{'.'})
	h.Write(body)
	return h.Sum(nil)
}

// Verify checks a signed webhook request: signatureHeader is the
// X-Webhook-Signature value ("sha256=<hex>", prefix case-insensitive),
// timestampHeader the X-Webhook-Timestamp value (unix seconds) and body the
// raw request body, exactly as received.
//
// The checks run in a fixed order:
//
//  1. the timestamp must be unix seconds (ErrTimestampInvalid);
//  2. the signature must be well formed and match the HMAC of the
//     timestamp text and body (ErrInvalidSignature), compared in constant
//     time;
//  3. the timestamp must be no older than MaxAge (ErrTimestampExpired) and
//     no more than MaxSkew ahead of now (ErrTimestampInFuture).
//
// The window is checked only after the signature so that a caller without
// the secret cannot probe the receiver's clock or acceptance window: every
// forged request fails with ErrInvalidSignature whatever its timestamp.
// An empty secret never verifies, so a source registered without one
// cannot be posted to by anybody who guesses that.
func Verify(secret, signatureHeader, timestampHeader string, body []byte, now time.Time) error {
	tsText := strings.TrimSpace(timestampHeader)
	ts, ok := unixSecondsText(tsText)
	if !ok {
		return ErrTimestampInvalid
	}

	got, err := ParseSignature(signatureHeader)
	if err != nil || secret == "" {
		return ErrInvalidSignature
	}
	// The signed text is the header as sent, not a re-formatting of the
	// parsed number, since that is what the sender computed the HMAC over.
	if !hmac.Equal(got, mac(secret, tsText, body)) {
		return ErrInvalidSignature
	}

	// Whole seconds first: time.Unix would overflow on absurd values such
	// as 9223372036854775807 and wrap them into the past.
	if ts > now.Unix()+int64(MaxSkew/time.Second) {
		return ErrTimestampInFuture
	}
	sent := time.Unix(ts, 0)
	if now.Sub(sent) > MaxAge {
		return ErrTimestampExpired
	}
	if sent.Sub(now) > MaxSkew {
		return ErrTimestampInFuture
	}
	return nil
}

// ParseSignature decodes an X-Webhook-Signature value ("sha256=<hex>",
// prefix and hex digits in either case, surrounding space ignored) into
// the MAC it carries, or fails with ErrInvalidSignature. Every spelling of
// one MAC decodes to the same bytes, so callers that remember accepted
// signatures must key them on these bytes, never on the header text.
func ParseSignature(header string) ([]byte, error) {
	sig := strings.TrimSpace(header)
	if len(sig) != len(signaturePrefix)+hex.EncodedLen(sha256.Size) ||
		!strings.EqualFold(sig[:len(signaturePrefix)], signaturePrefix) {
		return nil, ErrInvalidSignature
	}
	mac, err := hex.DecodeString(sig[len(signaturePrefix):])
	if err != nil {
		return nil, ErrInvalidSignature
	}
	return mac, nil
}

// CheckHeaders checks the shape of the signature and timestamp headers
// without the body or the secret, so a request that can never verify is
// refused before anything is read or decrypted. It returns the decoded
// MAC and reports the same errors as Verify would for those headers.
func CheckHeaders(signatureHeader, timestampHeader string) ([]byte, error) {
	if _, ok := unixSecondsText(strings.TrimSpace(timestampHeader)); !ok {
		return nil, ErrTimestampInvalid
	}
	return ParseSignature(signatureHeader)
}

// unixSecondsText parses a timestamp header: ASCII digits only, since
// strconv would also accept a sign and the header has no use for one.
func unixSecondsText(s string) (int64, bool) {
	if s == "" {
		return 0, false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return 0, false
		}
	}
	ts, err := strconv.ParseInt(s, 10, 64)
	return ts, err == nil
}
