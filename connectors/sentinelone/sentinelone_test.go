package sentinelone

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

const agentWS01 = "1463801667584541849"

func connect(t *testing.T, p *consolePeer, token string) *Singularity {
	t.Helper()
	return vendortest.Build[*Singularity](t, connectors.Config{ID: "s1-test", Type: Type,
		Settings: map[string]string{"base_url": p.srv.URL},
		Secrets:  map[string]string{"api_token": token}})
}

func TestDisconnectAndReconnectAreIdempotent(t *testing.T) {
	p := newConsolePeer(t)
	p.addAgent(agentWS01, "WS-01")
	s := connect(t, p, p.token)
	ctx := context.Background()

	for i, want := range []string{"disconnect from the network requested", "already disconnected"} {
		res, err := s.Isolate(ctx, "act-1", "ws-01", "beaconing")
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(res.Message, want) || res.Output["host_id"] != agentWS01 || res.Output["status"] != connectors.HostIsolated {
			t.Fatalf("isolate #%d: %+v", i+1, res)
		}
	}
	p.agentAcknowledges()
	if h, err := s.Host(ctx, agentWS01); err != nil || h.Status != connectors.HostIsolated {
		t.Fatalf("host = %+v, %v", h, err)
	}
	for i := 0; i < 2; i++ {
		if res, err := s.Unisolate(ctx, "act-2", agentWS01, ""); err != nil || res.Output["status"] != connectors.HostActive {
			t.Fatalf("unisolate #%d: %+v, %v", i+1, res, err)
		}
	}
	if p.calls("disconnect") != 1 || p.calls("connect") != 1 {
		t.Fatalf("disconnect sent %d times, connect %d; want 1 each", p.calls("disconnect"), p.calls("connect"))
	}
	p.agentAcknowledges()
	if h, _ := s.Host(ctx, "WS-01"); h.Status != connectors.HostActive {
		t.Fatalf("host = %+v", h)
	}
}

func TestScanReportsThreatsSinceTheRequest(t *testing.T) {
	p := newConsolePeer(t)
	p.addAgent(agentWS01, "WS-01")
	s := connect(t, p, p.token)
	ctx := context.Background()
	res, err := s.StartScan(ctx, "act-3", agentWS01, "")
	if err != nil || res.Output["scan_type"] != "full" || !strings.Contains(res.Message, "full disk scans only") {
		t.Fatalf("start = %+v, %v", res, err)
	}
	again, err := s.StartScan(ctx, "act-3", agentWS01, "")
	if err != nil || !strings.Contains(again.Message, "already running") || p.calls("initiate-scan") != 1 {
		t.Fatalf("repeat = %+v, %v; scans requested %d", again, err, p.calls("initiate-scan"))
	}
	id := res.Output["scan_id"].(string)
	if rep, err := s.Scan(ctx, id); err != nil || rep.Status != connectors.ScanRunning {
		t.Fatalf("running = %+v, %v", rep, err)
	}
	old := time.Now().UTC().Add(-time.Hour).Format(time.RFC3339Nano)
	fresh := time.Now().UTC().Format(time.RFC3339Nano)
	p.finishScan(agentWS01, scanFinished,
		map[string]any{"id": "1", "threatInfo": map[string]any{"threatName": "old.exe", "filePath": `\Device\old.exe`, "confidenceLevel": "malicious", "createdAt": old}},
		map[string]any{"id": "2", "threatInfo": map[string]any{"threatName": "invoice.exe", "filePath": `\Device\HarddiskVolume3\Users\a\Downloads\invoice.exe`, "confidenceLevel": "malicious", "createdAt": fresh}})
	rep, err := s.Scan(ctx, id)
	if err != nil || rep.Status != connectors.ScanFinished || len(rep.Findings) != 1 || rep.Findings[0].Name != "invoice.exe" || rep.Findings[0].Severity != "high" {
		t.Fatalf("finished = %+v, %v", rep, err)
	}
	if _, err := s.Scan(ctx, "not-a-scan"); !errors.Is(err, connectors.ErrPermanent) {
		t.Fatalf("bad id: %v", err)
	}
}

func TestAbortedScanIsAnError(t *testing.T) {
	p := newConsolePeer(t)
	p.addAgent(agentWS01, "WS-01")
	s := connect(t, p, p.token)
	res, err := s.StartScan(context.Background(), "act-1", agentWS01, "full")
	if err != nil {
		t.Fatal(err)
	}
	p.finishScan(agentWS01, scanAborted)
	if _, err := s.Scan(context.Background(), res.Output["scan_id"].(string)); !errors.Is(err, connectors.ErrPermanent) {
		t.Fatalf("err = %v", err)
	}
}

func TestWrongTokenFailsOnceAsAuth(t *testing.T) {
	p := newConsolePeer(t)
	p.addAgent(agentWS01, "WS-01")
	s := connect(t, p, "wrong-token")
	_, err := s.Isolate(context.Background(), "k", agentWS01, "")
	if !errors.Is(err, vendorhttp.ErrAuth) || !errors.Is(err, connectors.ErrPermanent) || strings.Contains(err.Error(), "wrong-token") {
		t.Fatalf("err = %v", err)
	}
	if n := p.requestCount(); n != 1 {
		t.Fatalf("requests = %d, want 1", n)
	}
	if err := s.Test(context.Background()); !errors.Is(err, vendorhttp.ErrAuth) {
		t.Fatalf("Test: %v", err)
	}
}

func TestMissingPermissionIsPermission(t *testing.T) {
	p := newConsolePeer(t)
	p.addAgent(agentWS01, "WS-01")
	p.grant("endpoints.network", false)
	s := connect(t, p, p.token)
	_, err := s.Isolate(context.Background(), "k", agentWS01, "")
	if !errors.Is(err, vendorhttp.ErrPermission) || !strings.Contains(err.Error(), "Insufficient permissions") {
		t.Fatalf("err = %v", err)
	}
}

func TestUnknownAgentIsPermanent(t *testing.T) {
	p := newConsolePeer(t)
	s := connect(t, p, p.token)
	for _, host := range []string{"ghost", "1111111111111111111", "a b"} {
		if _, err := s.Isolate(context.Background(), "k", host, ""); !errors.Is(err, connectors.ErrPermanent) {
			t.Errorf("%s: err = %v", host, err)
		}
	}
}

func TestRateLimitIsRetried(t *testing.T) {
	p := newConsolePeer(t)
	p.addAgent(agentWS01, "WS-01")
	p.throttle = 1
	s := connect(t, p, p.token)
	if err := s.Test(context.Background()); err != nil {
		t.Fatal(err)
	}
	if n := p.requestCount(); n != 2 {
		t.Fatalf("requests = %d, want 2", n)
	}
}
