package mde

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/vigil-soc/vigil/connectors"
	"github.com/vigil-soc/vigil/connectors/vendorhttp"
	"github.com/vigil-soc/vigil/connectors/vendortest"
)

const machineWS01 = "1e5bc9d7e413ddd7902c2932e418702b84d0cc07"

func connect(t *testing.T, p *defenderPeer, secret string) *Defender {
	t.Helper()
	return vendortest.Build[*Defender](t, connectors.Config{ID: "mde-test", Type: Type,
		Settings: map[string]string{"base_url": p.srv.URL, "login_url": p.srv.URL, "tenant_id": p.tenant, "client_id": "app-1"},
		Secrets:  map[string]string{"client_secret": secret}})
}

func TestIsolateAndReleaseAreIdempotent(t *testing.T) {
	p := newDefenderPeer(t)
	p.addMachine(machineWS01, "ws-01.contoso.com")
	d := connect(t, p, p.secret)
	ctx := context.Background()

	var isolationID string
	for i, want := range []string{"isolation of ws-01.contoso.com requested", "already requested"} {
		res, err := d.Isolate(ctx, "act-1", "WS-01.contoso.com", "ransomware alert 3212")
		if err != nil {
			t.Fatal(err)
		}
		if isolationID == "" {
			isolationID, _ = res.Output["isolation_id"].(string)
		}
		if !strings.Contains(res.Message, want) || res.Output["isolation_id"] != isolationID || res.Output["host_id"] != machineWS01 {
			t.Fatalf("isolate #%d: %+v", i+1, res)
		}
	}
	p.settle(statusSucceeded)
	if res, err := d.Isolate(ctx, "act-other", machineWS01, ""); err != nil || !strings.Contains(res.Message, "already isolated") {
		t.Fatalf("isolate of an isolated machine: %+v, %v", res, err)
	}
	if n := p.count(&p.posts); n != 1 {
		t.Fatalf("isolate sent %d times, want 1", n)
	}
	if h, err := d.Host(ctx, machineWS01); err != nil || h.Status != connectors.HostIsolated || h.IsolationID != isolationID {
		t.Fatalf("host = %+v, %v", h, err)
	}
	for i := 0; i < 2; i++ {
		if res, err := d.Unisolate(ctx, "act-2", machineWS01, "clean"); err != nil || res.Output["status"] != connectors.HostActive {
			t.Fatalf("unisolate #%d: %+v, %v", i+1, res, err)
		}
	}
	p.settle(statusSucceeded)
	if res, err := d.Unisolate(ctx, "act-3", machineWS01, ""); err != nil || !strings.Contains(res.Message, "was not isolated") {
		t.Fatalf("release of a released machine: %+v, %v", res, err)
	}
	if n := p.count(&p.posts); n != 2 {
		t.Fatalf("actions sent %d times, want 2", n)
	}
	if h, _ := d.Host(ctx, machineWS01); h.Status != connectors.HostActive || h.UnisolatedAt == nil {
		t.Fatalf("host = %+v", h)
	}
}

func TestScanRunsOnceAndReportsAntivirusAlerts(t *testing.T) {
	p := newDefenderPeer(t)
	p.addMachine(machineWS01, "ws-01")
	d := connect(t, p, p.secret)
	ctx := context.Background()
	before := time.Now().UTC().Add(-time.Hour)
	p.raise(machineWS01, map[string]any{"title": "Old detection", "severity": "High", "detectionSource": antivirusSource, "alertCreationTime": before})

	var scanID string
	for i := 0; i < 2; i++ {
		res, err := d.StartScan(ctx, "act-9", "ws-01", "quick")
		if err != nil {
			t.Fatal(err)
		}
		if scanID == "" {
			scanID, _ = res.Output["scan_id"].(string)
		}
		if res.Output["scan_id"] != scanID || res.Output["status"] != connectors.ScanRunning {
			t.Fatalf("start #%d: %+v", i+1, res)
		}
	}
	if n := p.count(&p.posts); n != 1 {
		t.Fatalf("scan requested %d times, want 1", n)
	}
	if rep, err := d.Scan(ctx, scanID); err != nil || rep.Status != connectors.ScanRunning || rep.ScanType != "quick" {
		t.Fatalf("running = %+v, %v", rep, err)
	}
	p.settle(statusSucceeded)
	p.raise(machineWS01,
		map[string]any{"title": "'Wacatac' malware was detected", "severity": "Medium", "detectionSource": antivirusSource,
			"alertCreationTime": time.Now().UTC().Add(time.Second),
			"evidence":          []map[string]any{{"entityType": "File", "fileName": "invoice.exe", "filePath": `C:\Users\a\Downloads`}}},
		map[string]any{"title": "Suspicious PowerShell", "severity": "High", "detectionSource": "WindowsDefenderAtp",
			"alertCreationTime": time.Now().UTC().Add(time.Second)})
	rep, err := d.Scan(ctx, scanID)
	if err != nil || rep.Status != connectors.ScanFinished || len(rep.Findings) != 1 ||
		rep.Findings[0].Path != `C:\Users\a\Downloads\invoice.exe` || rep.Findings[0].Severity != "medium" {
		t.Fatalf("finished = %+v, %v", rep, err)
	}
}

func TestFailedScanIsAnError(t *testing.T) {
	p := newDefenderPeer(t)
	p.addMachine(machineWS01, "ws-01")
	d := connect(t, p, p.secret)
	res, err := d.StartScan(context.Background(), "act-1", machineWS01, "full")
	if err != nil {
		t.Fatal(err)
	}
	p.settle("TimeOut")
	if _, err := d.Scan(context.Background(), res.Output["scan_id"].(string)); !errors.Is(err, connectors.ErrPermanent) {
		t.Fatalf("err = %v", err)
	}
}

func TestWrongSecretFailsOnceAsAuth(t *testing.T) {
	p := newDefenderPeer(t)
	p.addMachine(machineWS01, "ws-01")
	d := connect(t, p, "wrong-secret")
	_, err := d.Isolate(context.Background(), "k", machineWS01, "")
	if !errors.Is(err, vendorhttp.ErrAuth) || !errors.Is(err, connectors.ErrPermanent) || !strings.Contains(err.Error(), "AADSTS7000215") {
		t.Fatalf("err = %v", err)
	}
	if strings.Contains(err.Error(), "wrong-secret") {
		t.Fatal("error leaks the secret")
	}
	if n := p.count(&p.tokenCalls); n != 1 {
		t.Fatalf("token requested %d times, want 1", n)
	}
}

func TestMissingPermissionIsPermission(t *testing.T) {
	p := newDefenderPeer(t)
	p.addMachine(machineWS01, "ws-01")
	p.grant("Machine.Isolate", false)
	d := connect(t, p, p.secret)
	_, err := d.Isolate(context.Background(), "k", machineWS01, "")
	if !errors.Is(err, vendorhttp.ErrPermission) || !strings.Contains(err.Error(), "Machine.Isolate") {
		t.Fatalf("err = %v", err)
	}
}

func TestUnknownMachineIsPermanent(t *testing.T) {
	p := newDefenderPeer(t)
	d := connect(t, p, p.secret)
	for _, host := range []string{"nobody", "0000000000000000000000000000000000000000", "a'b"} {
		if _, err := d.Isolate(context.Background(), "k", host, ""); !errors.Is(err, connectors.ErrPermanent) {
			t.Errorf("%s: err = %v", host, err)
		}
	}
}

func TestRateLimitHonoursRetryAfter(t *testing.T) {
	p := newDefenderPeer(t)
	p.addMachine(machineWS01, "ws-01")
	p.throttle = 1
	d := connect(t, p, p.secret)
	start := time.Now()
	if h, err := d.Host(context.Background(), machineWS01); err != nil || h.Hostname != "ws-01" {
		t.Fatalf("host = %+v, %v", h, err)
	}
	if n := p.count(&p.requests); n != 3 || time.Since(start) < 900*time.Millisecond {
		t.Fatalf("requests = %d after %s; want 3 (one throttled) after the 1 s Retry-After", n, time.Since(start))
	}
}

func TestTestNeedsMachineRead(t *testing.T) {
	p := newDefenderPeer(t)
	d := connect(t, p, p.secret)
	if err := d.Test(context.Background()); err != nil {
		t.Fatal(err)
	}
	p.grant("Machine.Read.All", false)
	if err := d.Test(context.Background()); !errors.Is(err, vendorhttp.ErrPermission) {
		t.Fatalf("err = %v", err)
	}
}
