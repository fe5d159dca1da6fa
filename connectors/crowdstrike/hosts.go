package crowdstrike

import (
	"context"
	"net/http"
	"net/url"
	"regexp"
	"time"

	"github.com/vigil-soc/vigil/connectors"
	"github.com/vigil-soc/vigil/connectors/vendorhttp"
)

// Falcon's containment states (the device's "status" field).
const (
	statusNormal         = "normal"
	statusContained      = "contained"
	statusContainPending = "containment_pending"
	statusLiftPending    = "lift_containment_pending"
)

// device is the part of a Falcon device record the connector reads.
type device struct {
	DeviceID string `json:"device_id"`
	Hostname string `json:"hostname"`
	Status   string `json:"status"`
}

// isolated reports whether the device is contained or about to be.
func (d device) isolated() bool {
	return d.Status == statusContained || d.Status == statusContainPending
}

func (d device) state() connectors.HostState {
	s := connectors.HostState{HostID: d.DeviceID, Hostname: d.Hostname, Status: connectors.HostActive}
	if d.isolated() {
		s.Status, s.IsolationID = connectors.HostIsolated, d.DeviceID
	}
	return s
}

var (
	// agentID is the shape of a Falcon agent id (aid): 32 hex digits.
	agentID = regexp.MustCompile(`^[0-9a-fA-F]{32}$`)
	// hostnameChars keeps a hostname safe to quote in a query filter.
	hostnameChars = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]{0,252}$`)
)

// resolve finds the device named by hostID: an agent id, or a hostname
// that must match exactly one device.
func (f *Falcon) resolve(ctx context.Context, hostID string) (device, error) {
	aid := hostID
	if !agentID.MatchString(hostID) {
		if !hostnameChars.MatchString(hostID) {
			return device{}, connectors.Permanentf("%s: %q is neither an agent id nor a hostname", title, hostID)
		}
		var ids idsAnswer
		_, err := f.api.Do(ctx, vendorhttp.Request{Method: http.MethodGet, Path: "/devices/queries/devices/v1",
			Query: url.Values{"filter": {"hostname:'" + hostID + "'"}, "limit": {"2"}}, Out: &ids})
		if err != nil {
			return device{}, err
		}
		switch len(ids.Resources) {
		case 0:
			return device{}, connectors.Permanentf("%s: no host named %s", title, hostID)
		case 1:
			aid = ids.Resources[0]
		default:
			return device{}, connectors.Permanentf("%s: more than one host is named %s; use its agent id", title, hostID)
		}
	}
	var out envelope[device]
	_, err := f.api.Do(ctx, vendorhttp.Request{Method: http.MethodGet, Path: "/devices/entities/devices/v2",
		Query: url.Values{"ids": {aid}}, Out: &out})
	if err != nil {
		return device{}, err
	}
	if len(out.Resources) == 0 {
		if err := firstError(out.Errors); err != nil {
			return device{}, err
		}
		return device{}, connectors.Permanentf("%s: no host with agent id %s", title, aid)
	}
	return out.Resources[0], nil
}

// Host reports a host's name and containment state.
func (f *Falcon) Host(ctx context.Context, hostID string) (connectors.HostState, error) {
	d, err := f.resolve(ctx, hostID)
	if err != nil {
		return connectors.HostState{}, err
	}
	return d.state(), nil
}

// Isolate network-contains a host. Falcon has no idempotency key, so the
// host's state is read first: a host already contained (or being
// contained) is left alone and reported as isolated.
func (f *Falcon) Isolate(ctx context.Context, key, hostID, reason string) (connectors.Result, error) {
	d, err := f.resolve(ctx, hostID)
	if err != nil {
		return connectors.Result{}, err
	}
	msg := "host " + d.Hostname + " already contained"
	if !d.isolated() {
		if err := f.act(ctx, "contain", d.DeviceID); err != nil {
			return connectors.Result{}, err
		}
		d.Status, msg = statusContainPending, "host "+d.Hostname+" containment requested"
	}
	return connectors.IsolationResult(msg, d.DeviceID, d.DeviceID, d.Hostname, time.Now(), d.Status), nil
}

// Unisolate lifts containment. A host that is not contained is left alone
// and the call succeeds, so a rollback never fails on a host someone
// already released.
func (f *Falcon) Unisolate(ctx context.Context, key, hostID, reason string) (connectors.Result, error) {
	d, err := f.resolve(ctx, hostID)
	if err != nil {
		return connectors.Result{}, err
	}
	msg := "host " + d.Hostname + " was not contained"
	if d.isolated() {
		if err := f.act(ctx, "lift_containment", d.DeviceID); err != nil {
			return connectors.Result{}, err
		}
		d.Status, msg = statusLiftPending, "host "+d.Hostname+" containment lift requested"
	}
	return connectors.ReleaseResult(msg, d.DeviceID, d.Hostname, time.Now(), d.Status), nil
}

// act performs a device action (contain, lift_containment) on one device.
func (f *Falcon) act(ctx context.Context, action, aid string) error {
	var out envelope[struct {
		ID string `json:"id"`
	}]
	_, err := f.api.Do(ctx, vendorhttp.Request{Method: http.MethodPost, Path: "/devices/entities/devices-actions/v2",
		Query: url.Values{"action_name": {action}}, Body: map[string]any{"ids": []string{aid}}, Out: &out})
	if err != nil {
		return err
	}
	return firstError(out.Errors)
}
