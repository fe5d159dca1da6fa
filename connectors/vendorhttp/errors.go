package vendorhttp

import (
	"errors"
	"fmt"
	"time"

	"github.com/vigil-soc/vigil/connectors"
)

// What went wrong with a vendor call, in the words a connector test shows.
// Errors from Client match one of them with errors.Is.
var (
	// ErrAuth: the vendor refused the credentials (HTTP 401, a refused token request).
	ErrAuth = errors.New("authentication failed: check the client id and secret or API token")
	// ErrPermission: the credentials are valid but lack a scope or role (HTTP 403).
	ErrPermission = errors.New("permission denied: the credentials lack a required scope or role")
	// ErrNotFound: the object named does not exist at the vendor (HTTP 404).
	ErrNotFound = errors.New("not found at the vendor")
	// ErrRateLimited: the vendor asked to slow down (HTTP 429) longer than one call may wait.
	ErrRateLimited = errors.New("rate limited by the vendor")
	// ErrNetwork: the vendor could not be reached or timed out.
	ErrNetwork = errors.New("network error: the vendor could not be reached")
	// ErrVendor: the vendor answered with an error not covered above.
	ErrVendor = errors.New("vendor error")
)

// Error is a failed vendor call. It matches its Kind and, when a retry
// cannot help, connectors.ErrPermanent.
type Error struct {
	Vendor string
	// Status is the HTTP status, or 0 when no answer arrived.
	Status int
	Kind   error
	// Detail is the vendor's own error message, trimmed; never a secret.
	Detail string
	// Permanent is true when retrying the same call cannot succeed.
	Permanent bool
	// RetryAfter is the wait the vendor asked for, when it asked.
	RetryAfter time.Duration
}

func (e *Error) Error() string {
	msg := e.Vendor + ": " + e.Kind.Error()
	if e.Status != 0 {
		msg += fmt.Sprintf(" (HTTP %d)", e.Status)
	}
	if e.Detail != "" {
		msg += ": " + e.Detail
	}
	return msg
}

// Is matches the error's kind and, for permanent errors, connectors.ErrPermanent.
func (e *Error) Is(target error) bool {
	return target == e.Kind || (e.Permanent && target == connectors.ErrPermanent)
}

// classify maps an HTTP status to an error kind and whether retrying helps:
// 408, 425, 429 and 5xx are worth retrying, every other 4xx is not.
func classify(status int) (kind error, permanent bool) {
	switch {
	case status == 401:
		return ErrAuth, true
	case status == 403:
		return ErrPermission, true
	case status == 404:
		return ErrNotFound, true
	case status == 429:
		return ErrRateLimited, false
	case status == 408 || status == 425 || status >= 500:
		return ErrVendor, false
	default:
		return ErrVendor, true
	}
}
