package mde

import (
	"context"
	"net/http"
	"net/url"
	"regexp"
	"sort"
	"strings"
	"time"

	"github.com/vigil-soc/vigil/connectors"
	"github.com/vigil-soc/vigil/connectors/vendorhttp"
)

// machine is the part of a Defender machine entity the connector reads.
type machine struct {
	ID              string `json:"id"`
	ComputerDNSName string `json:"computerDnsName"`
}

// Machine action types and states.
const (
	typeIsolate   = "Isolate"
	typeUnisolate = "Unisolate"
	typeScan      = "RunAntiVirusScan"

	statusPending    = "Pending"
	statusInProgress = "InProgress"
	statusSucceeded  = "Succeeded"
)

// machineAction is the part of a machine action the connector reads.
type machineAction struct {
	ID                  string    `json:"id"`
	Type                string    `json:"type"`
	Scope               string    `json:"scope"`
	Status              string    `json:"status"`
	MachineID           string    `json:"machineId"`
	ComputerDNSName     string    `json:"computerDnsName"`
	RequestorComment    string    `json:"requestorComment"`
	CreationDateTimeUtc time.Time `json:"creationDateTimeUtc"`
	LastUpdateTimeUtc   time.Time `json:"lastUpdateDateTimeUtc"`
}

// live reports whether the action took or may still take effect.
func (a machineAction) live() bool {
	return a.Status == statusPending || a.Status == statusInProgress || a.Status == statusSucceeded
}

var (
	// machineID is the shape of a Defender machine id: 40 hex digits.
	machineID = regexp.MustCompile(`^[0-9a-fA-F]{40}$`)
	// dnsName keeps a computer name safe to quote in an OData filter.
	dnsName = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]{0,252}$`)
)

// resolve finds the machine named by hostID: a machine id, or a computer
// DNS name that must match exactly one machine.
func (d *Defender) resolve(ctx context.Context, hostID string) (machine, error) {
	if machineID.MatchString(hostID) {
		var m machine
		_, err := d.api.Do(ctx, vendorhttp.Request{Method: http.MethodGet, Path: "/api/machines/" + hostID, Out: &m})
		return m, err
	}
	if !dnsName.MatchString(hostID) {
		return machine{}, connectors.Permanentf("%s: %q is neither a machine id nor a computer name", title, hostID)
	}
	var out list[machine]
	_, err := d.api.Do(ctx, vendorhttp.Request{Method: http.MethodGet, Path: "/api/machines",
		Query: url.Values{"$filter": {"computerDnsName eq '" + strings.ToLower(hostID) + "'"}}, Out: &out})
	if err != nil {
		return machine{}, err
	}
	switch len(out.Value) {
	case 0:
		return machine{}, connectors.Permanentf("%s: no machine named %s", title, hostID)
	case 1:
		return out.Value[0], nil
	default:
		return machine{}, connectors.Permanentf("%s: more than one machine is named %s; use its machine id", title, hostID)
	}
}

// actions lists a machine's actions, newest first.
func (d *Defender) actions(ctx context.Context, machineID string) ([]machineAction, error) {
	var out list[machineAction]
	_, err := d.api.Do(ctx, vendorhttp.Request{Method: http.MethodGet, Path: "/api/machineactions",
		Query: url.Values{"$filter": {"machineId eq '" + machineID + "'"}}, Out: &out})
	sort.SliceStable(out.Value, func(i, j int) bool {
		return out.Value[i].CreationDateTimeUtc.After(out.Value[j].CreationDateTimeUtc)
	})
	return out.Value, err
}

// tag marks the comment of every action Vigil requests with the action id,
// so a repeated call finds the request instead of sending another.
func tag(key string) string { return "[Vigil action " + key + "]" }

func comment(reason, fallback, key string) string {
	if reason = strings.TrimSpace(reason); reason == "" {
		reason = fallback
	}
	return reason + " " + tag(key)
}

// requested finds the live action of one type that key already requested.
func requested(actions []machineAction, typ, key string) (machineAction, bool) {
	for _, a := range actions {
		if a.Type == typ && a.live() && strings.Contains(a.RequestorComment, tag(key)) {
			return a, true
		}
	}
	return machineAction{}, false
}

// isolation returns the newest live isolate or release action, which
// decides whether the machine is (being) isolated.
func isolation(actions []machineAction) (machineAction, bool) {
	for _, a := range actions {
		if (a.Type == typeIsolate || a.Type == typeUnisolate) && a.live() {
			return a, true
		}
	}
	return machineAction{}, false
}

// Host reports a machine's name and isolation state, which Defender keeps
// as the history of isolate and release actions.
func (d *Defender) Host(ctx context.Context, hostID string) (connectors.HostState, error) {
	m, err := d.resolve(ctx, hostID)
	if err != nil {
		return connectors.HostState{}, err
	}
	acts, err := d.actions(ctx, m.ID)
	if err != nil {
		return connectors.HostState{}, err
	}
	s := connectors.HostState{HostID: m.ID, Hostname: m.ComputerDNSName, Status: connectors.HostActive}
	if last, ok := isolation(acts); ok {
		at := last.CreationDateTimeUtc
		if last.Type == typeIsolate {
			s.Status, s.IsolationID, s.IsolatedAt = connectors.HostIsolated, last.ID, &at
		} else {
			s.UnisolatedAt = &at
		}
	}
	return s, nil
}

// Isolate isolates a machine from the network. The machine's action
// history is read first: a request this action already made, or an
// isolation already in place, is reported instead of sending another.
func (d *Defender) Isolate(ctx context.Context, key, hostID, reason string) (connectors.Result, error) {
	m, acts, err := d.machineWithActions(ctx, hostID)
	if err != nil {
		return connectors.Result{}, err
	}
	a, done := requested(acts, typeIsolate, key)
	msg := "isolation of " + m.ComputerDNSName + " already requested"
	if last, ok := isolation(acts); !done && ok && last.Type == typeIsolate {
		a, done, msg = last, true, "machine "+m.ComputerDNSName+" already isolated"
	}
	if !done {
		a, err = d.act(ctx, m.ID, "isolate", map[string]any{
			"Comment": comment(reason, "Isolated by Vigil", key), "IsolationType": d.isolationType})
		if err != nil {
			return connectors.Result{}, err
		}
		msg = "isolation of " + m.ComputerDNSName + " requested"
	}
	return connectors.IsolationResult(msg, a.ID, m.ID, m.ComputerDNSName, a.CreationDateTimeUtc, a.Status), nil
}

// Unisolate releases a machine from isolation. A machine that is not
// isolated is left alone and the call succeeds, so a rollback never fails
// on a machine someone already released.
func (d *Defender) Unisolate(ctx context.Context, key, hostID, reason string) (connectors.Result, error) {
	m, acts, err := d.machineWithActions(ctx, hostID)
	if err != nil {
		return connectors.Result{}, err
	}
	a, done := requested(acts, typeUnisolate, key)
	msg := "release of " + m.ComputerDNSName + " already requested"
	if last, ok := isolation(acts); !done && (!ok || last.Type == typeUnisolate) {
		a, done, msg = last, true, "machine "+m.ComputerDNSName+" was not isolated"
	}
	if !done {
		a, err = d.act(ctx, m.ID, "unisolate", map[string]any{"Comment": comment(reason, "Released by Vigil", key)})
		if err != nil {
			return connectors.Result{}, err
		}
		msg = "release of " + m.ComputerDNSName + " requested"
	}
	var at time.Time
	if a.ID != "" {
		at = a.CreationDateTimeUtc
	}
	return connectors.ReleaseResult(msg, m.ID, m.ComputerDNSName, at, a.Status), nil
}

func (d *Defender) machineWithActions(ctx context.Context, hostID string) (machine, []machineAction, error) {
	m, err := d.resolve(ctx, hostID)
	if err != nil {
		return machine{}, nil, err
	}
	acts, err := d.actions(ctx, m.ID)
	return m, acts, err
}

// act requests a machine action (isolate, unisolate, runAntiVirusScan).
func (d *Defender) act(ctx context.Context, machineID, verb string, body map[string]any) (machineAction, error) {
	var a machineAction
	_, err := d.api.Do(ctx, vendorhttp.Request{Method: http.MethodPost,
		Path: "/api/machines/" + machineID + "/" + verb, Body: body, Out: &a})
	return a, err
}
