package mde

import (
	"context"
	"net/http"
	"strings"
	"time"

	"github.com/vigil-soc/vigil/connectors"
	"github.com/vigil-soc/vigil/connectors/vendorhttp"
)

// antivirusSource is the detectionSource of alerts Microsoft Defender
// Antivirus raises, which is where a scan's detections appear.
const antivirusSource = "WindowsDefenderAv"

// alert is the part of a Defender alert the connector reads.
type alert struct {
	Title             string     `json:"title"`
	Severity          string     `json:"severity"`
	DetectionSource   string     `json:"detectionSource"`
	AlertCreationTime time.Time  `json:"alertCreationTime"`
	Evidence          []evidence `json:"evidence"`
}

type evidence struct {
	EntityType string `json:"entityType"`
	FileName   string `json:"fileName"`
	FilePath   string `json:"filePath"`
}

// StartScan runs a Microsoft Defender Antivirus scan ("quick" or "full")
// on a machine. A scan this action already requested is reported instead
// of requesting another.
func (d *Defender) StartScan(ctx context.Context, key, hostID, scanType string) (connectors.Result, error) {
	if scanType == "" {
		scanType = "quick"
	}
	scope := map[string]string{"quick": "Quick", "full": "Full"}[scanType]
	if scope == "" {
		return connectors.Result{}, connectors.Permanentf("%s: scan_type must be quick or full, not %q", title, scanType)
	}
	m, acts, err := d.machineWithActions(ctx, hostID)
	if err != nil {
		return connectors.Result{}, err
	}
	a, done := requested(acts, typeScan, key)
	msg := scanType + " scan of " + m.ComputerDNSName + " already requested"
	if !done {
		a, err = d.act(ctx, m.ID, "runAntiVirusScan", map[string]any{
			"Comment": comment("Vigil "+scanType+" scan", "", key), "ScanType": scope})
		if err != nil {
			return connectors.Result{}, err
		}
		msg = scanType + " scan of " + m.ComputerDNSName + " requested"
	}
	return connectors.Result{Success: true, Message: msg, Output: map[string]any{
		"scan_id": a.ID, "host_id": m.ID, "scan_type": scanType,
		"started_at": a.CreationDateTimeUtc.UTC().Format(time.RFC3339), "status": connectors.ScanRunning,
	}}, nil
}

// Scan reports a scan (a machine action). Once it has succeeded, its
// findings are the antivirus alerts raised on the machine since it was
// requested. A scan that failed, timed out or was cancelled is an error,
// so nobody reads it as a clean result.
func (d *Defender) Scan(ctx context.Context, scanID string) (connectors.ScanReport, error) {
	var a machineAction
	_, err := d.api.Do(ctx, vendorhttp.Request{Method: http.MethodGet, Path: "/api/machineactions/" + scanID, Out: &a})
	if err != nil {
		return connectors.ScanReport{}, err
	}
	if a.Type != typeScan {
		return connectors.ScanReport{}, connectors.Permanentf("%s: machine action %s is not a scan", title, scanID)
	}
	r := connectors.ScanReport{ScanID: a.ID, HostID: a.MachineID, ScanType: strings.ToLower(a.Scope),
		Status: connectors.ScanRunning, StartedAt: a.CreationDateTimeUtc.UTC(), Findings: []connectors.Finding{}}
	switch a.Status {
	case statusPending, statusInProgress:
		return r, nil
	case statusSucceeded:
		done := a.LastUpdateTimeUtc.UTC()
		r.Status, r.FinishedAt = connectors.ScanFinished, &done
		r.Findings, err = d.findings(ctx, a.MachineID, a.CreationDateTimeUtc)
		return r, err
	default:
		return connectors.ScanReport{}, connectors.Permanentf("%s: scan %s ended with status %s", title, a.ID, a.Status)
	}
}

// findings lists the antivirus alerts raised on a machine since a time.
func (d *Defender) findings(ctx context.Context, machineID string, since time.Time) ([]connectors.Finding, error) {
	var out list[alert]
	_, err := d.api.Do(ctx, vendorhttp.Request{Method: http.MethodGet, Path: "/api/machines/" + machineID + "/alerts", Out: &out})
	if err != nil {
		return nil, err
	}
	found := []connectors.Finding{}
	for _, al := range out.Value {
		if al.DetectionSource != antivirusSource || al.AlertCreationTime.Before(since) {
			continue
		}
		found = append(found, connectors.Finding{Name: al.Title, Severity: strings.ToLower(al.Severity), Path: filePath(al.Evidence)})
	}
	return found, nil
}

// filePath is the path of the first file an alert's evidence names.
func filePath(ev []evidence) string {
	for _, e := range ev {
		if e.EntityType == "File" && e.FileName != "" {
			if e.FilePath == "" {
				return e.FileName
			}
			return strings.TrimSuffix(e.FilePath, `\`) + `\` + e.FileName
		}
	}
	return ""
}
