package simulated

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"time"

	"github.com/google/uuid"
	"gorm.io/gorm"

	"github.com/vigil-soc/vigil/actions"
	"github.com/vigil-soc/vigil/connectors"
)

// hostRow is a host the simulated EDR knows. Hosts come into existence on
// first use, since the simulation has no fleet inventory.
type hostRow struct {
	HostID       string `gorm:"primaryKey"`
	Hostname     string
	Status       string
	IsolationID  string
	IsolatedAt   *time.Time
	UnisolatedAt *time.Time
}

func (hostRow) TableName() string { return "sim_hosts" }

func (h hostRow) state() connectors.HostState {
	return connectors.HostState{HostID: h.HostID, Hostname: h.Hostname, Status: h.Status,
		IsolationID: h.IsolationID, IsolatedAt: h.IsolatedAt, UnisolatedAt: h.UnisolatedAt}
}

// edr is the simulated connectors.EDR.
type edr struct{ *backend }

func (e *edr) call(key, op string, req map[string]any) call {
	return call{key: key, connector: actions.ConnectorEDR, operation: op, request: req}
}

var hostnamePattern = regexp.MustCompile(`^(?i)[a-z]([a-z0-9-]{0,61}[a-z0-9])?(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$`)

// hostnameFor derives a stable hostname from a host id: the id itself when
// it reads as a hostname, otherwise "ws-" and the first eight letters and
// digits of the id, like a workstation naming scheme would.
func hostnameFor(hostID string) string {
	if _, err := uuid.Parse(hostID); err != nil && len(hostID) <= 253 && hostnamePattern.MatchString(hostID) {
		return strings.ToLower(hostID)
	}
	var b strings.Builder
	for _, r := range strings.ToLower(hostID) {
		if b.Len() == 8 {
			break
		}
		if (r >= 'a' && r <= 'z') || (r >= '0' && r <= '9') {
			b.WriteRune(r)
		}
	}
	if b.Len() == 0 {
		sum := fingerprint(hostID)
		return fmt.Sprintf("ws-%x", sum[:4])
	}
	return "ws-" + b.String()
}

// lockHost returns the host's row locked for this transaction, creating it
// as an active host on first use.
func lockHost(tx *gorm.DB, hostID string) (hostRow, error) {
	fresh := hostRow{HostID: hostID, Hostname: hostnameFor(hostID), Status: connectors.HostActive}
	if _, err := insertIfAbsent(tx, &fresh); err != nil {
		return hostRow{}, fmt.Errorf("record host %s: %w", hostID, err)
	}
	var h hostRow
	if err := forUpdate(tx).Take(&h, "host_id = ?", hostID).Error; err != nil {
		return hostRow{}, fmt.Errorf("read host %s: %w", hostID, err)
	}
	return h, nil
}

// Isolate cuts a host off the network. Isolating an isolated host succeeds
// and reports the isolation already in place.
func (e *edr) Isolate(ctx context.Context, key, hostID, reason string) (connectors.Result, error) {
	if err := required("host_id", hostID); err != nil {
		return connectors.Result{}, err
	}
	req := map[string]any{"host_id": hostID, "reason": reason}
	return e.perform(ctx, e.call(key, "isolate", req), func(tx *gorm.DB, now time.Time) (connectors.Result, error) {
		h, err := lockHost(tx, hostID)
		if err != nil {
			return connectors.Result{}, err
		}
		msg := "host " + h.Hostname + " already isolated"
		if h.Status != connectors.HostIsolated {
			msg = "host " + h.Hostname + " isolated"
			h.Status, h.IsolationID, h.IsolatedAt = connectors.HostIsolated, "iso-"+uuid.NewString(), &now
			err := tx.Model(&hostRow{}).Where("host_id = ?", hostID).Updates(map[string]any{
				"status": h.Status, "isolation_id": h.IsolationID, "isolated_at": now,
			}).Error
			if err != nil {
				return connectors.Result{}, fmt.Errorf("isolate host %s: %w", hostID, err)
			}
		}
		return connectors.Result{Success: true, Message: msg, Output: map[string]any{
			"isolation_id": h.IsolationID, "host_id": h.HostID, "hostname": h.Hostname,
			"isolated_at": timestamp(*h.IsolatedAt), "status": h.Status,
		}}, nil
	})
}

// Unisolate reconnects a host. A host that is not isolated is left alone
// and the call succeeds: the desired state already holds, and a rollback
// must not fail because someone reconnected the host by hand.
func (e *edr) Unisolate(ctx context.Context, key, hostID, reason string) (connectors.Result, error) {
	if err := required("host_id", hostID); err != nil {
		return connectors.Result{}, err
	}
	req := map[string]any{"host_id": hostID, "reason": reason}
	return e.perform(ctx, e.call(key, "unisolate", req), func(tx *gorm.DB, now time.Time) (connectors.Result, error) {
		h, err := lockHost(tx, hostID)
		if err != nil {
			return connectors.Result{}, err
		}
		msg := "host " + h.Hostname + " was not isolated"
		if h.Status == connectors.HostIsolated {
			msg = "host " + h.Hostname + " reconnected"
			h.Status, h.IsolationID, h.UnisolatedAt = connectors.HostActive, "", &now
			err := tx.Model(&hostRow{}).Where("host_id = ?", hostID).Updates(map[string]any{
				"status": h.Status, "isolation_id": "", "unisolated_at": now,
			}).Error
			if err != nil {
				return connectors.Result{}, fmt.Errorf("unisolate host %s: %w", hostID, err)
			}
		}
		out := map[string]any{"host_id": h.HostID, "hostname": h.Hostname, "status": h.Status}
		if h.UnisolatedAt != nil {
			out["unisolated_at"] = timestamp(*h.UnisolatedAt)
		}
		return connectors.Result{Success: true, Message: msg, Output: out}, nil
	})
}

// Host reports a host's state; a host never acted on is active.
func (e *edr) Host(ctx context.Context, hostID string) (connectors.HostState, error) {
	if err := required("host_id", hostID); err != nil {
		return connectors.HostState{}, err
	}
	var h hostRow
	err := e.db(ctx).Take(&h, "host_id = ?", hostID).Error
	switch {
	case errors.Is(err, gorm.ErrRecordNotFound):
		return connectors.HostState{HostID: hostID, Hostname: hostnameFor(hostID), Status: connectors.HostActive}, nil
	case err != nil:
		return connectors.HostState{}, fmt.Errorf("read host %s: %w", hostID, err)
	}
	return h.state(), nil
}

// CheckHealth implements connectors.HealthChecker.
func (e *edr) CheckHealth(ctx context.Context) connectors.Health {
	return e.healthOf(ctx, "simulated-edr", actions.ConnectorEDR)
}
