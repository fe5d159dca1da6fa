package crowdstrike

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/vigil-soc/vigil/connectors"
	"github.com/vigil-soc/vigil/connectors/vendorhttp"
	"github.com/vigil-soc/vigil/connectors/vendortest"
)

const (
	aidWS01 = "4f3c2a1b0d9e8f7a6b5c4d3e2f1a0b9c"
	aidDup1 = "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa1"
	aidDup2 = "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa2"
)

func connect(t *testing.T, p *falconPeer, secret string) *Falcon {
	t.Helper()
	return vendortest.Build[*Falcon](t, connectors.Config{ID: "cs-test", Type: Type,
		Settings: map[string]string{"base_url": p.srv.URL, "client_id": "client-1"},
		Secrets:  map[string]string{"client_secret": secret}})
}

func TestContainAndLiftByHostnameAreIdempotent(t *testing.T) {
	p := newFalconPeer(t)
	p.addDevice(aidWS01, "WS-01")
	f := connect(t, p, p.secret)
	ctx := context.Background()

	for i, want := range []string{"containment requested", "already contained"} {
		res, err := f.Isolate(ctx, "act-1", "WS-01", "phishing payload ran")
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(res.Message, want) || res.Output["host_id"] != aidWS01 ||
			res.Output["status"] != connectors.HostIsolated || res.Output["hostname"] != "WS-01" {
			t.Fatalf("isolate #%d: %+v", i+1, res)
		}
	}
	if n := p.count(&p.actionCalls); n != 1 {
		t.Fatalf("contain sent %d times, want 1", n)
	}
	if h, err := f.Host(ctx, aidWS01); err != nil || h.Status != connectors.HostIsolated {
		t.Fatalf("host = %+v, %v", h, err)
	}
	for i := 0; i < 2; i++ {
		res, err := f.Unisolate(ctx, "act-2", aidWS01, "cleared")
		if err != nil || res.Output["status"] != connectors.HostActive {
			t.Fatalf("unisolate #%d: %+v, %v", i+1, res, err)
		}
	}
	if n := p.count(&p.actionCalls); n != 2 {
		t.Fatalf("device actions sent %d times, want 2", n)
	}
	if h, _ := f.Host(ctx, "WS-01"); h.Status != connectors.HostActive {
		t.Fatalf("host = %+v", h)
	}
}

func TestHostLookupFailuresArePermanent(t *testing.T) {
	p := newFalconPeer(t)
	p.addDevice(aidDup1, "shared")
	p.addDevice(aidDup2, "shared")
	f := connect(t, p, p.secret)
	for _, host := range []string{"missing", "shared", "bad'name", "0000000000000000000000000000dead"} {
		_, err := f.Isolate(context.Background(), "k", host, "")
		if !errors.Is(err, connectors.ErrPermanent) {
			t.Errorf("%s: err = %v", host, err)
		}
	}
	if p.count(&p.actionCalls) != 0 {
		t.Fatal("an action was sent for an unresolved host")
	}
}

func TestScanStartsOnceAndReportsFindings(t *testing.T) {
	p := newFalconPeer(t)
	p.addDevice(aidWS01, "WS-01")
	f := connect(t, p, p.secret)
	ctx := context.Background()
	var scanID string
	for i := 0; i < 2; i++ {
		res, err := f.StartScan(ctx, "act-3", "WS-01", "full")
		if err != nil {
			t.Fatal(err)
		}
		if scanID == "" {
			scanID, _ = res.Output["scan_id"].(string)
		}
		if res.Output["scan_id"] != scanID || res.Output["scan_type"] != "full" || res.Output["status"] != connectors.ScanRunning {
			t.Fatalf("start #%d: %+v", i+1, res)
		}
	}
	if n := p.count(&p.scanCreates); n != 1 {
		t.Fatalf("scan created %d times, want 1", n)
	}
	rep, err := f.Scan(ctx, scanID)
	if err != nil || rep.Status != connectors.ScanRunning || rep.HostID != aidWS01 || rep.ScanType != "full" {
		t.Fatalf("running report = %+v, %v", rep, err)
	}
	p.finishScan(scanID, map[string]any{"filename": "invoice.pdf.exe", "filepath": `C:\Users\a\Downloads\invoice.pdf.exe`, "severity": 40, "quarantined": false})
	rep, err = f.Scan(ctx, scanID)
	if err != nil || rep.Status != connectors.ScanFinished || rep.FinishedAt == nil || len(rep.Findings) != 1 ||
		rep.Findings[0].Severity != "high" || rep.Findings[0].Name != "invoice.pdf.exe" {
		t.Fatalf("finished report = %+v, %v", rep, err)
	}
	if _, err := f.StartScan(ctx, "act-4", "WS-01", "deep"); !errors.Is(err, connectors.ErrPermanent) {
		t.Fatalf("unknown scan type: %v", err)
	}
}

func TestWrongSecretFailsOnceAsAuth(t *testing.T) {
	p := newFalconPeer(t)
	p.addDevice(aidWS01, "WS-01")
	f := connect(t, p, "wrong-secret")
	_, err := f.Isolate(context.Background(), "k", aidWS01, "")
	if !errors.Is(err, vendorhttp.ErrAuth) || !errors.Is(err, connectors.ErrPermanent) {
		t.Fatalf("err = %v", err)
	}
	if strings.Contains(err.Error(), "wrong-secret") {
		t.Fatal("error leaks the secret")
	}
	if n := p.count(&p.tokenCalls); n != 1 {
		t.Fatalf("token requested %d times, want 1", n)
	}
	if err := f.Test(context.Background()); !errors.Is(err, vendorhttp.ErrAuth) {
		t.Fatalf("Test: %v", err)
	}
}

func TestMissingScopeIsPermission(t *testing.T) {
	p := newFalconPeer(t)
	p.addDevice(aidWS01, "WS-01")
	p.grant("hosts:write", false)
	f := connect(t, p, p.secret)
	_, err := f.Isolate(context.Background(), "k", aidWS01, "")
	if !errors.Is(err, vendorhttp.ErrPermission) || !errors.Is(err, connectors.ErrPermanent) {
		t.Fatalf("err = %v", err)
	}
	if !strings.Contains(err.Error(), "authorization failed") {
		t.Fatalf("vendor message missing: %v", err)
	}
}

func TestRateLimitIsRetried(t *testing.T) {
	p := newFalconPeer(t)
	p.addDevice(aidWS01, "WS-01")
	p.throttle = 1
	f := connect(t, p, p.secret)
	if h, err := f.Host(context.Background(), aidWS01); err != nil || h.Hostname != "WS-01" {
		t.Fatalf("host = %+v, %v", h, err)
	}
	if n := p.count(&p.requests); n != 2 {
		t.Fatalf("requests = %d, want 2 (one throttled)", n)
	}
}

func TestTestNeedsHostsRead(t *testing.T) {
	p := newFalconPeer(t)
	f := connect(t, p, p.secret)
	if err := f.Test(context.Background()); err != nil {
		t.Fatal(err)
	}
	p.grant("hosts:read", false)
	if err := f.Test(context.Background()); !errors.Is(err, vendorhttp.ErrPermission) {
		t.Fatalf("Test without scope: %v", err)
	}
}

func TestFailedScanIsAnError(t *testing.T) {
	p := newFalconPeer(t)
	p.addDevice(aidWS01, "WS-01")
	f := connect(t, p, p.secret)
	res, err := f.StartScan(context.Background(), "act-5", aidWS01, "")
	if err != nil || res.Output["scan_type"] != "quick" {
		t.Fatalf("start = %+v, %v", res, err)
	}
	id := res.Output["scan_id"].(string)
	p.mu.Lock()
	p.scans[id].Status = "failed"
	p.mu.Unlock()
	if _, err := f.Scan(context.Background(), id); !errors.Is(err, connectors.ErrPermanent) || !strings.Contains(err.Error(), "failed") {
		t.Fatalf("err = %v", err)
	}
}
