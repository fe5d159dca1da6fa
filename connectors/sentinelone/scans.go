package sentinelone

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/vigil-soc/vigil/connectors"
	"github.com/vigil-soc/vigil/connectors/vendorhttp"
)

// SentinelOne's scan states (the agent's "scanStatus").
const (
	scanStarted  = "started"
	scanFinished = "finished"
	scanAborted  = "aborted"
)

// skew is how far the console's clock may trail Vigil's when a scan's
// start is matched to the request that caused it.
const skew = 2 * time.Minute

// threat is the part of a SentinelOne threat the connector reads.
type threat struct {
	ThreatInfo struct {
		ThreatName      string    `json:"threatName"`
		FilePath        string    `json:"filePath"`
		ConfidenceLevel string    `json:"confidenceLevel"`
		CreatedAt       time.Time `json:"createdAt"`
	} `json:"threatInfo"`
}

// scanID names a scan by its agent and the time it was requested, since
// SentinelOne gives scans no id of their own.
func scanID(agentID string, requested time.Time) string {
	return agentID + "@" + requested.UTC().Format(time.RFC3339Nano)
}

func parseScanID(id string) (string, time.Time, error) {
	agent, at, ok := strings.Cut(id, "@")
	t, err := time.Parse(time.RFC3339Nano, at)
	if !ok || err != nil || !agentID.MatchString(agent) {
		return "", time.Time{}, connectors.Permanentf("%s: %q is not a scan id this connector issued", title, id)
	}
	return agent, t, nil
}

// StartScan starts a full disk scan, the only scan SentinelOne offers (a
// "quick" request runs it too, and the result says so). An agent already
// scanning is left alone and its running scan reported.
func (s *Singularity) StartScan(ctx context.Context, key, hostID, scanType string) (connectors.Result, error) {
	if scanType != "" && scanType != "quick" && scanType != "full" {
		return connectors.Result{}, connectors.Permanentf("%s: scan_type must be quick or full, not %q", title, scanType)
	}
	a, err := s.resolve(ctx, hostID)
	if err != nil {
		return connectors.Result{}, err
	}
	started := time.Now().UTC()
	msg := "full disk scan already running on " + a.ComputerName
	if a.ScanStatus == scanStarted && a.ScanStartedAt != nil {
		started = a.ScanStartedAt.UTC()
	} else {
		if err := s.agentAction(ctx, "initiate-scan", a.ID); err != nil {
			return connectors.Result{}, err
		}
		msg = "full disk scan requested on " + a.ComputerName
	}
	if scanType == "quick" || scanType == "" {
		msg += " (SentinelOne offers full disk scans only)"
	}
	return connectors.Result{Success: true, Message: msg, Output: map[string]any{
		"scan_id": scanID(a.ID, started), "host_id": a.ID, "scan_type": "full",
		"started_at": started.Format(time.RFC3339), "status": connectors.ScanRunning,
	}}, nil
}

// Scan reports a scan from the agent's scan state: running until the
// agent reports a scan started since the request as finished, then the
// threats found on the agent since the request. An aborted scan is an
// error, so nobody reads it as a clean result.
func (s *Singularity) Scan(ctx context.Context, id string) (connectors.ScanReport, error) {
	agentID, requested, err := parseScanID(id)
	if err != nil {
		return connectors.ScanReport{}, err
	}
	a, err := s.resolve(ctx, agentID)
	if err != nil {
		return connectors.ScanReport{}, err
	}
	r := connectors.ScanReport{ScanID: id, HostID: a.ID, ScanType: "full", Status: connectors.ScanRunning,
		StartedAt: requested, Findings: []connectors.Finding{}}
	ours := a.ScanStartedAt != nil && !a.ScanStartedAt.Before(requested.Add(-skew))
	if !ours {
		return r, nil
	}
	r.StartedAt = a.ScanStartedAt.UTC()
	switch a.ScanStatus {
	case scanFinished:
		r.Status, r.FinishedAt = connectors.ScanFinished, a.ScanFinishedAt
		r.Findings, err = s.threatsSince(ctx, a.ID, requested.Add(-skew))
		return r, err
	case scanAborted:
		return connectors.ScanReport{}, connectors.Permanentf("%s: the scan on %s was aborted", title, a.ComputerName)
	default:
		return r, nil
	}
}

// threatsSince lists the threats SentinelOne recorded on an agent since t.
func (s *Singularity) threatsSince(ctx context.Context, agentID string, t time.Time) ([]connectors.Finding, error) {
	var out page[threat]
	_, err := s.api.Do(ctx, vendorhttp.Request{Method: http.MethodGet, Path: "/threats", Out: &out,
		Query: url.Values{"agentIds": {agentID}, "createdAt__gte": {t.UTC().Format(time.RFC3339Nano)}, "limit": {"100"}}})
	if err != nil {
		return nil, err
	}
	found := make([]connectors.Finding, 0, len(out.Data))
	for _, th := range out.Data {
		sev := "medium"
		if th.ThreatInfo.ConfidenceLevel == "malicious" {
			sev = "high"
		}
		found = append(found, connectors.Finding{Name: th.ThreatInfo.ThreatName, Severity: sev, Path: th.ThreatInfo.FilePath})
	}
	return found, nil
}
