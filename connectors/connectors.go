// Package connectors defines how Vigil talks to the tools that carry out
// response actions: one interface per kind of tool (email gateway, EDR,
// ticketing, notifier), and a Set that routes an action type to the right
// one. Implementations live in subpackages; connectors/simulated is the
// embedded default.
//
// Every state-changing call takes an idempotency key (the action id).
// Implementations must perform the operation at most once per key and
// answer a repeated key with the Result of the first call, because the
// workflow engine retries activities after crashes and timeouts.
package connectors

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// ErrPermanent marks failures a retry cannot fix (unknown host, bad input,
// an operation that contradicts the target's state). Callers make errors
// that match it with errors.Is non-retryable.
var ErrPermanent = errors.New("permanent connector failure")

// permanentError carries its own message but matches ErrPermanent, so the
// message users see is the cause rather than a generic prefix.
type permanentError struct{ err error }

func (e *permanentError) Error() string        { return e.err.Error() }
func (e *permanentError) Unwrap() error        { return e.err }
func (e *permanentError) Is(target error) bool { return target == ErrPermanent }

// Permanent marks err as one a retry cannot fix; nil stays nil.
func Permanent(err error) error {
	if err == nil {
		return nil
	}
	return &permanentError{err: err}
}

// Permanentf formats a message (with %w support) and marks it permanent.
func Permanentf(format string, args ...any) error {
	return Permanent(fmt.Errorf(format, args...))
}

// Result is what a connector call produced. Output holds the operation's
// output fields (for isolate_host: isolation_id, host_id, hostname,
// isolated_at, status).
type Result struct {
	Success bool           `json:"success"`
	Message string         `json:"message"`
	Output  map[string]any `json:"output,omitempty"`
}

// EmailGateway quarantines messages and blocks senders.
type EmailGateway interface {
	Quarantine(ctx context.Context, key, messageID, reason string) (Result, error)
	Release(ctx context.Context, key, messageID, reason string) (Result, error)
	BlockSender(ctx context.Context, key, sender, reason string) (Result, error)
	UnblockSender(ctx context.Context, key, sender, reason string) (Result, error)
	// MessageStatus reports MessageDelivered, MessageQuarantined or MessageReleased.
	MessageStatus(ctx context.Context, messageID string) (string, error)
	SenderBlocked(ctx context.Context, sender string) (bool, error)
}

// Message states reported by EmailGateway.MessageStatus.
const (
	MessageDelivered   = "delivered"
	MessageQuarantined = "quarantined"
	MessageReleased    = "released"
)

// EDR isolates and scans endpoints.
type EDR interface {
	Isolate(ctx context.Context, key, hostID, reason string) (Result, error)
	Unisolate(ctx context.Context, key, hostID, reason string) (Result, error)
	StartScan(ctx context.Context, key, hostID, scanType string) (Result, error)
	// Scan reports a scan started by StartScan; findings once it has finished.
	Scan(ctx context.Context, scanID string) (ScanReport, error)
	// Host reports a host's name and network state.
	Host(ctx context.Context, hostID string) (HostState, error)
}

// Host and scan states reported by an EDR.
const (
	HostActive   = "active"
	HostIsolated = "isolated"
	ScanRunning  = "running"
	ScanFinished = "finished"
)

// ScanReport is the state of one scan.
type ScanReport struct {
	ScanID     string     `json:"scan_id"`
	HostID     string     `json:"host_id"`
	ScanType   string     `json:"scan_type"`
	Status     string     `json:"status"`
	StartedAt  time.Time  `json:"started_at"`
	FinishedAt *time.Time `json:"finished_at,omitempty"`
	Findings   []Finding  `json:"findings"`
}

// Finding is one detection a scan reported.
type Finding struct {
	Name     string `json:"name"`
	Severity string `json:"severity"`
	Path     string `json:"path"`
}

// HostState is what an EDR knows about one host.
type HostState struct {
	HostID       string     `json:"host_id"`
	Hostname     string     `json:"hostname"`
	Status       string     `json:"status"`
	IsolationID  string     `json:"isolation_id,omitempty"`
	IsolatedAt   *time.Time `json:"isolated_at,omitempty"`
	UnisolatedAt *time.Time `json:"unisolated_at,omitempty"`
}

// Ticket is what CreateTicket files.
type Ticket struct {
	Title       string `json:"title"`
	Description string `json:"description,omitempty"`
	Priority    string `json:"priority"`
}

// Ticketing files tickets.
type Ticketing interface {
	CreateTicket(ctx context.Context, key string, t Ticket) (Result, error)
}

// Notifier sends messages to users.
type Notifier interface {
	NotifyUser(ctx context.Context, key, user, message, channel string) (Result, error)
}
