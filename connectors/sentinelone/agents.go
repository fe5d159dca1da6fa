package sentinelone

import (
	"context"
	"net/http"
	"net/url"
	"regexp"
	"time"

	"github.com/vigil-soc/vigil/connectors"
	"github.com/vigil-soc/vigil/connectors/vendorhttp"
)

// SentinelOne's network states (the agent's "networkStatus").
const (
	netConnected     = "connected"
	netConnecting    = "connecting"
	netDisconnected  = "disconnected"
	netDisconnecting = "disconnecting"
)

// agent is the part of a SentinelOne agent record the connector reads.
type agent struct {
	ID             string     `json:"id"`
	ComputerName   string     `json:"computerName"`
	NetworkStatus  string     `json:"networkStatus"`
	ScanStatus     string     `json:"scanStatus"`
	ScanStartedAt  *time.Time `json:"scanStartedAt"`
	ScanFinishedAt *time.Time `json:"scanFinishedAt"`
	ScanAbortedAt  *time.Time `json:"scanAbortedAt"`
}

// isolated reports whether the agent is cut off or being cut off.
func (a agent) isolated() bool {
	return a.NetworkStatus == netDisconnected || a.NetworkStatus == netDisconnecting
}

var (
	// agentID is the shape of a SentinelOne agent id: a long decimal number.
	agentID = regexp.MustCompile(`^[0-9]{6,20}$`)
	// computerName keeps a name to a plausible endpoint name.
	computerName = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]{0,252}$`)
)

// resolve finds the agent named by hostID: an agent id, or a computer name
// that must match exactly one agent.
func (s *Singularity) resolve(ctx context.Context, hostID string) (agent, error) {
	q := url.Values{"limit": {"2"}}
	switch {
	case agentID.MatchString(hostID):
		q.Set("ids", hostID)
	case computerName.MatchString(hostID):
		q.Set("computerName", hostID)
	default:
		return agent{}, connectors.Permanentf("%s: %q is neither an agent id nor a computer name", title, hostID)
	}
	var out page[agent]
	if _, err := s.api.Do(ctx, vendorhttp.Request{Method: http.MethodGet, Path: "/agents", Query: q, Out: &out}); err != nil {
		return agent{}, err
	}
	switch len(out.Data) {
	case 0:
		return agent{}, connectors.Permanentf("%s: no agent %s", title, hostID)
	case 1:
		return out.Data[0], nil
	default:
		return agent{}, connectors.Permanentf("%s: more than one agent is named %s; use its agent id", title, hostID)
	}
}

// Host reports an agent's computer name and network state.
func (s *Singularity) Host(ctx context.Context, hostID string) (connectors.HostState, error) {
	a, err := s.resolve(ctx, hostID)
	if err != nil {
		return connectors.HostState{}, err
	}
	h := connectors.HostState{HostID: a.ID, Hostname: a.ComputerName, Status: connectors.HostActive}
	if a.isolated() {
		h.Status, h.IsolationID = connectors.HostIsolated, a.ID
	}
	return h, nil
}

// Isolate disconnects an agent's endpoint from the network. SentinelOne has
// no idempotency key, so the agent's state is read first: an endpoint
// already disconnected (or disconnecting) is left alone.
func (s *Singularity) Isolate(ctx context.Context, key, hostID, reason string) (connectors.Result, error) {
	a, err := s.resolve(ctx, hostID)
	if err != nil {
		return connectors.Result{}, err
	}
	msg := "endpoint " + a.ComputerName + " already disconnected from the network"
	if !a.isolated() {
		if err := s.agentAction(ctx, "disconnect", a.ID); err != nil {
			return connectors.Result{}, err
		}
		a.NetworkStatus, msg = netDisconnecting, "endpoint "+a.ComputerName+" disconnect from the network requested"
	}
	return connectors.IsolationResult(msg, a.ID, a.ID, a.ComputerName, time.Now(), a.NetworkStatus), nil
}

// Unisolate reconnects an endpoint. One that is not disconnected is left
// alone and the call succeeds, so a rollback never fails on an endpoint
// someone already reconnected.
func (s *Singularity) Unisolate(ctx context.Context, key, hostID, reason string) (connectors.Result, error) {
	a, err := s.resolve(ctx, hostID)
	if err != nil {
		return connectors.Result{}, err
	}
	msg := "endpoint " + a.ComputerName + " was not disconnected"
	if a.isolated() {
		if err := s.agentAction(ctx, "connect", a.ID); err != nil {
			return connectors.Result{}, err
		}
		a.NetworkStatus, msg = netConnecting, "endpoint "+a.ComputerName+" reconnect requested"
	}
	return connectors.ReleaseResult(msg, a.ID, a.ComputerName, time.Now(), a.NetworkStatus), nil
}
