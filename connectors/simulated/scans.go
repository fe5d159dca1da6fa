package simulated

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"time"

	"github.com/google/uuid"
	"gorm.io/gorm"

	"github.com/vigil-soc/vigil/actions"
	"github.com/vigil-soc/vigil/connectors"
	"github.com/vigil-soc/vigil/store"
)

// scanRow is one scan. It reports running until its duration has passed
// on the backend's clock; the first read after that records the finish.
type scanRow struct {
	ScanID     string `gorm:"primaryKey"`
	HostID     string
	ScanType   string
	Status     string
	StartedAt  time.Time
	FinishedAt *time.Time
	Findings   store.JSON[[]connectors.Finding]
}

func (scanRow) TableName() string { return "sim_scans" }

func (s scanRow) report() connectors.ScanReport {
	findings := s.Findings.V
	if findings == nil {
		findings = []connectors.Finding{}
	}
	return connectors.ScanReport{ScanID: s.ScanID, HostID: s.HostID, ScanType: s.ScanType, Status: s.Status,
		StartedAt: s.StartedAt, FinishedAt: s.FinishedAt, Findings: findings}
}

// StartScan starts a quick or full scan ("" means quick) on a host.
func (e *edr) StartScan(ctx context.Context, key, hostID, scanType string) (connectors.Result, error) {
	if err := required("host_id", hostID); err != nil {
		return connectors.Result{}, err
	}
	if scanType == "" {
		scanType = "quick"
	}
	if err := oneOf(actions.ScanHost, "scan_type", scanType); err != nil {
		return connectors.Result{}, err
	}
	req := map[string]any{"host_id": hostID, "scan_type": scanType}
	return e.perform(ctx, e.call(key, "start_scan", req), func(tx *gorm.DB, now time.Time) (connectors.Result, error) {
		h, err := lockHost(tx, hostID)
		if err != nil {
			return connectors.Result{}, err
		}
		s := scanRow{ScanID: "scan-" + uuid.NewString(), HostID: hostID, ScanType: scanType,
			Status: connectors.ScanRunning, StartedAt: now, Findings: store.NewJSON([]connectors.Finding{})}
		if err := tx.Create(&s).Error; err != nil {
			return connectors.Result{}, fmt.Errorf("start scan on %s: %w", hostID, err)
		}
		return connectors.Result{Success: true, Message: scanType + " scan started on host " + h.Hostname,
			Output: map[string]any{
				"scan_id": s.ScanID, "host_id": hostID, "scan_type": scanType,
				"started_at": timestamp(now), "status": s.Status,
			}}, nil
	})
}

// Scan reports a scan, finishing it once its duration has elapsed. The
// finish time is the start plus the duration, not the time of the read, so
// the report does not depend on when someone looked.
func (e *edr) Scan(ctx context.Context, scanID string) (connectors.ScanReport, error) {
	var s scanRow
	err := e.db(ctx).Transaction(func(tx *gorm.DB) error {
		err := forUpdate(tx).Take(&s, "scan_id = ?", scanID).Error
		if errors.Is(err, gorm.ErrRecordNotFound) {
			return connectors.Permanentf("scan %s not found", scanID)
		}
		if err != nil {
			return fmt.Errorf("read scan %s: %w", scanID, err)
		}
		finish := s.StartedAt.Add(e.duration(s.ScanType))
		if s.Status != connectors.ScanRunning || e.now().Before(finish) {
			return nil
		}
		s.Status, s.FinishedAt, s.Findings = connectors.ScanFinished, &finish, store.NewJSON(findingsFor(s.HostID))
		return tx.Model(&scanRow{}).Where("scan_id = ? AND status = ?", scanID, connectors.ScanRunning).
			Updates(map[string]any{"status": s.Status, "finished_at": finish, "findings": s.Findings}).Error
	})
	if err != nil {
		return connectors.ScanReport{}, err
	}
	return s.report(), nil
}

func (e *edr) duration(scanType string) time.Duration {
	if scanType == "full" {
		return e.full
	}
	return e.quick
}

// detections are the findings a simulated scan can report.
var detections = []connectors.Finding{
	{Name: "Trojan.GenericKD", Severity: "high", Path: `C:\Users\Public\Downloads\invoice.pdf.exe`},
	{Name: "Backdoor.Beacon", Severity: "critical", Path: `C:\Windows\Temp\svchost.dll`},
	{Name: "HackTool.CredentialDumper", Severity: "high", Path: `C:\ProgramData\update\m64.exe`},
	{Name: "PUA.CoinMiner", Severity: "medium", Path: "/tmp/.cache/kworkerd"},
	{Name: "Adware.BrowserHelper", Severity: "low", Path: `C:\Program Files\SearchHelper\helper.dll`},
	{Name: "Ransom.Locker", Severity: "critical", Path: `C:\Users\Public\Documents\readme.exe`},
}

func fingerprint(s string) [32]byte { return sha256.Sum256([]byte(s)) }

// findingsFor derives a host's findings from its id: about half the hosts
// are clean, the rest have one to three distinct detections. The same host
// always yields the same findings, so tests and demos are repeatable.
func findingsFor(hostID string) []connectors.Finding {
	h := fingerprint(hostID)
	out := []connectors.Finding{}
	if h[0]%2 == 0 {
		return out
	}
	n := 1 + int(h[1])%3
	start := int(h[2]) % len(detections)
	for i := range n {
		out = append(out, detections[(start+i)%len(detections)])
	}
	return out
}
