package crowdstrike

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"time"

	"github.com/vigil-soc/vigil/connectors"
	"github.com/vigil-soc/vigil/connectors/vendorhttp"
)

// Falcon's on-demand scan states.
const (
	odsPending   = "pending"
	odsRunning   = "running"
	odsCompleted = "completed"
)

// scan is the part of a Falcon on-demand scan the connector reads.
type scan struct {
	ID              string     `json:"id"`
	Hosts           []string   `json:"hosts"`
	Status          string     `json:"status"`
	Description     string     `json:"description"`
	CreatedOn       time.Time  `json:"created_on"`
	ScanStartedOn   *time.Time `json:"scan_started_on"`
	ScanCompletedOn *time.Time `json:"scan_completed_on"`
}

// maliciousFile is one detection an on-demand scan reported.
type maliciousFile struct {
	Filename string          `json:"filename"`
	Filepath string          `json:"filepath"`
	Severity json.RawMessage `json:"severity"`
}

// safeKey keeps an action id safe to quote in a query filter.
var safeKey = regexp.MustCompile(`^[A-Za-z0-9._:-]{1,128}$`)

// scanDescription marks a scan with the action that started it, so a
// repeated call finds the scan instead of starting another.
func scanDescription(key, scanType string) string {
	return "Vigil " + scanType + " scan, action " + key
}

// StartScan starts an on-demand scan (Falcon Prevent's ODS) on one host:
// "quick" covers the quick_scan_paths setting, "full" every path.
func (f *Falcon) StartScan(ctx context.Context, key, hostID, scanType string) (connectors.Result, error) {
	if scanType == "" {
		scanType = "quick"
	}
	inclusions := map[string][]string{"quick": f.quickPaths, "full": {"**"}}[scanType]
	if inclusions == nil {
		return connectors.Result{}, connectors.Permanentf("%s: scan_type must be quick or full, not %q", title, scanType)
	}
	if !safeKey.MatchString(key) {
		return connectors.Result{}, connectors.Permanentf("%s: action id %q cannot mark a scan", title, key)
	}
	d, err := f.resolve(ctx, hostID)
	if err != nil {
		return connectors.Result{}, err
	}
	desc := scanDescription(key, scanType)
	s, found, err := f.scanByDescription(ctx, desc)
	if err != nil {
		return connectors.Result{}, err
	}
	msg := scanType + " scan already started on host " + d.Hostname
	if !found {
		var out envelope[scan]
		_, err = f.api.Do(ctx, vendorhttp.Request{Method: http.MethodPost, Path: "/ods/entities/scans/v1", Out: &out,
			Body: map[string]any{
				"hosts": []string{d.DeviceID}, "scan_inclusions": inclusions, "description": desc,
				"cpu_priority": 2, "quarantine": false, "endpoint_notification": false,
				"sensor_ml_level_detection": 2, "sensor_ml_level_prevention": 0,
				"cloud_ml_level_detection": 2, "cloud_ml_level_prevention": 0,
			}})
		if err != nil {
			return connectors.Result{}, err
		}
		if len(out.Resources) == 0 {
			if err := firstError(out.Errors); err != nil {
				return connectors.Result{}, err
			}
			return connectors.Result{}, connectors.Permanentf("%s: the scan request returned no scan", title)
		}
		s, msg = out.Resources[0], scanType+" scan started on host "+d.Hostname
	}
	return connectors.Result{Success: true, Message: msg, Output: map[string]any{
		"scan_id": s.ID, "host_id": d.DeviceID, "scan_type": scanType,
		"started_at": startedAt(s).Format(time.RFC3339), "status": connectors.ScanRunning,
	}}, nil
}

// scanByDescription finds the scan a previous call with the same action
// started.
func (f *Falcon) scanByDescription(ctx context.Context, desc string) (scan, bool, error) {
	var ids idsAnswer
	_, err := f.api.Do(ctx, vendorhttp.Request{Method: http.MethodGet, Path: "/ods/queries/scans/v1",
		Query: url.Values{"filter": {"description.keyword:'" + desc + "'"}, "limit": {"1"}}, Out: &ids})
	if err != nil || len(ids.Resources) == 0 {
		return scan{}, false, err
	}
	s, err := f.scanByID(ctx, ids.Resources[0])
	return s, err == nil, err
}

func (f *Falcon) scanByID(ctx context.Context, id string) (scan, error) {
	var out envelope[scan]
	_, err := f.api.Do(ctx, vendorhttp.Request{Method: http.MethodGet, Path: "/ods/entities/scans/v1",
		Query: url.Values{"ids": {id}}, Out: &out})
	if err != nil {
		return scan{}, err
	}
	if len(out.Resources) == 0 {
		return scan{}, connectors.Permanentf("%s: scan %s not found", title, id)
	}
	return out.Resources[0], nil
}

// Scan reports an on-demand scan, with the malicious files it found once
// it has completed. A scan Falcon reports failed or cancelled is an error,
// so nobody reads it as a clean result.
func (f *Falcon) Scan(ctx context.Context, scanID string) (connectors.ScanReport, error) {
	s, err := f.scanByID(ctx, scanID)
	if err != nil {
		return connectors.ScanReport{}, err
	}
	r := connectors.ScanReport{ScanID: s.ID, ScanType: scanTypeOf(s.Description), Status: connectors.ScanRunning,
		StartedAt: startedAt(s), Findings: []connectors.Finding{}}
	if len(s.Hosts) > 0 {
		r.HostID = s.Hosts[0]
	}
	switch s.Status {
	case odsPending, odsRunning:
		return r, nil
	case odsCompleted:
		r.Status, r.FinishedAt = connectors.ScanFinished, s.ScanCompletedOn
		r.Findings, err = f.findings(ctx, s.ID)
		return r, err
	default:
		return connectors.ScanReport{}, connectors.Permanentf("%s: scan %s ended with status %s", title, s.ID, s.Status)
	}
}

// findings lists the malicious files a scan found.
func (f *Falcon) findings(ctx context.Context, scanID string) ([]connectors.Finding, error) {
	var ids idsAnswer
	_, err := f.api.Do(ctx, vendorhttp.Request{Method: http.MethodGet, Path: "/ods/queries/malicious-files/v1",
		Query: url.Values{"filter": {"scan_id:'" + scanID + "'"}, "limit": {"500"}}, Out: &ids})
	if err != nil || len(ids.Resources) == 0 {
		return []connectors.Finding{}, err
	}
	var out envelope[maliciousFile]
	_, err = f.api.Do(ctx, vendorhttp.Request{Method: http.MethodGet, Path: "/ods/entities/malicious-files/v1",
		Query: url.Values{"ids": ids.Resources}, Out: &out})
	if err != nil {
		return nil, err
	}
	found := make([]connectors.Finding, 0, len(out.Resources))
	for _, m := range out.Resources {
		found = append(found, connectors.Finding{Name: m.Filename, Severity: severityName(m.Severity), Path: m.Filepath})
	}
	return found, nil
}

// severityName maps Falcon's numeric severity (10 informational to 50
// critical) to a word; a severity already given as a word is kept.
func severityName(raw json.RawMessage) string {
	var n float64
	if json.Unmarshal(raw, &n) != nil {
		var s string
		_ = json.Unmarshal(raw, &s)
		return strings.ToLower(s)
	}
	switch {
	case n >= 50:
		return "critical"
	case n >= 40:
		return "high"
	case n >= 30:
		return "medium"
	case n >= 20:
		return "low"
	default:
		return "informational"
	}
}

func startedAt(s scan) time.Time {
	if s.ScanStartedOn != nil {
		return s.ScanStartedOn.UTC()
	}
	return s.CreatedOn.UTC()
}

func scanTypeOf(desc string) string {
	if strings.HasPrefix(desc, "Vigil full ") {
		return "full"
	}
	return "quick"
}
