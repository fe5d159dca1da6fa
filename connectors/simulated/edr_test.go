package simulated_test

import (
	"context"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/vigil-soc/vigil/connectors"
	"github.com/vigil-soc/vigil/connectors/simulated"
)

func hostState(t *testing.T, edr connectors.EDR, id string) connectors.HostState {
	t.Helper()
	h, err := edr.Host(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	return h
}

func TestIsolateAndUnisolate(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	edr := e.set.EDR

	if h := hostState(t, edr, "WKS-Finance-07"); h.Status != connectors.HostActive || h.Hostname != "wks-finance-07" {
		t.Fatalf("unknown host %+v, want active wks-finance-07", h)
	}

	res := mustOK(t)(edr.Isolate(ctx, "k-iso", "WKS-Finance-07", "beaconing"))
	mustKeys(t, res, "isolation_id", "host_id", "hostname", "isolated_at", "status")
	out := res.Output
	if out["status"] != "isolated" || out["host_id"] != "WKS-Finance-07" || out["hostname"] != "wks-finance-07" ||
		out["isolated_at"] != "2026-03-01T10:00:00Z" || !strings.HasPrefix(out["isolation_id"].(string), "iso-") {
		t.Fatalf("isolate output %v", out)
	}
	h := hostState(t, edr, "WKS-Finance-07")
	if h.Status != connectors.HostIsolated || h.IsolationID != out["isolation_id"] ||
		h.IsolatedAt == nil || !h.IsolatedAt.Equal(e.clock.Now()) {
		t.Fatalf("host after isolation %+v", h)
	}

	// Isolating again succeeds and reports the isolation in place.
	e.clock.Advance(time.Minute)
	again := mustOK(t)(edr.Isolate(ctx, "k-iso-2", "WKS-Finance-07", ""))
	if again.Message != "[simulated] host wks-finance-07 already isolated" ||
		again.Output["isolation_id"] != out["isolation_id"] || again.Output["isolated_at"] != out["isolated_at"] {
		t.Fatalf("second isolation %+v", again)
	}

	res = mustOK(t)(edr.Unisolate(ctx, "k-uniso", "WKS-Finance-07", "rollback"))
	mustKeys(t, res, "host_id", "hostname", "unisolated_at", "status")
	if res.Output["status"] != "active" || res.Output["unisolated_at"] != "2026-03-01T10:01:00Z" ||
		res.Output["hostname"] != "wks-finance-07" {
		t.Fatalf("unisolate output %v", res.Output)
	}
	if h := hostState(t, edr, "WKS-Finance-07"); h.Status != connectors.HostActive || h.IsolationID != "" ||
		h.UnisolatedAt == nil {
		t.Fatalf("host after unisolation %+v", h)
	}

	res = mustOK(t)(edr.Unisolate(ctx, "k-uniso-2", "WKS-Finance-07", ""))
	if res.Message != "[simulated] host wks-finance-07 was not isolated" || res.Output["status"] != "active" {
		t.Fatalf("unisolating an active host %+v", res)
	}
}

func TestHostnames(t *testing.T) {
	e := newEnv(t)
	cases := []struct{ id, hostname string }{
		{"db01.corp.example", "db01.corp.example"},
		{"LAPTOP-7", "laptop-7"},
		{"0f8e2c1a-4b5d-4e6f-8a9b-1c2d3e4f5a6b", "ws-0f8e2c1a"},
		{"a1b2c3d4-4b5d-4e6f-8a9b-1c2d3e4f5a6b", "ws-a1b2c3d4"},
		{"12345", "ws-12345"},
		{"host id with spaces", "ws-hostidwi"},
	}
	for _, tc := range cases {
		if got := hostState(t, e.set.EDR, tc.id).Hostname; got != tc.hostname {
			t.Errorf("hostname of %q = %q, want %q", tc.id, got, tc.hostname)
		}
	}
	if got := hostState(t, e.set.EDR, "???").Hostname; !strings.HasPrefix(got, "ws-") || len(got) != 11 {
		t.Errorf("hostname of an id without letters or digits: %q", got)
	}
}

func scanReport(t *testing.T, edr connectors.EDR, id string) connectors.ScanReport {
	t.Helper()
	r, err := edr.Scan(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func TestScanRunsThenFinishes(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	edr := e.set.EDR
	start := e.clock.Now()

	cases := []struct {
		scanType string
		duration time.Duration
	}{
		{"", simulated.DefaultQuickScan}, // empty means quick
		{"quick", simulated.DefaultQuickScan},
		{"full", simulated.DefaultFullScan},
	}
	var ids []string
	for i, tc := range cases {
		res := mustOK(t)(edr.StartScan(ctx, "k-scan-"+string(rune('a'+i)), "srv-"+string(rune('a'+i)), tc.scanType))
		mustKeys(t, res, "scan_id", "host_id", "scan_type", "started_at", "status")
		want := tc.scanType
		if want == "" {
			want = "quick"
		}
		if res.Output["status"] != "running" || res.Output["scan_type"] != want || res.Output["started_at"] != "2026-03-01T10:00:00Z" {
			t.Fatalf("scan output %v", res.Output)
		}
		ids = append(ids, res.Output["scan_id"].(string))
	}

	for _, id := range ids {
		if r := scanReport(t, edr, id); r.Status != connectors.ScanRunning || r.FinishedAt != nil || len(r.Findings) != 0 {
			t.Fatalf("new scan %+v", r)
		}
	}
	e.clock.Advance(simulated.DefaultQuickScan - time.Second)
	if r := scanReport(t, edr, ids[0]); r.Status != connectors.ScanRunning {
		t.Fatalf("quick scan finished early: %+v", r)
	}
	e.clock.Advance(time.Second)
	for i, tc := range cases {
		r := scanReport(t, edr, ids[i])
		wantStatus := connectors.ScanRunning
		if tc.duration == simulated.DefaultQuickScan {
			wantStatus = connectors.ScanFinished
		}
		if r.Status != wantStatus {
			t.Fatalf("scan %d after %s: %s, want %s", i, simulated.DefaultQuickScan, r.Status, wantStatus)
		}
		if wantStatus == connectors.ScanFinished && (r.FinishedAt == nil || !r.FinishedAt.Equal(start.Add(tc.duration))) {
			t.Fatalf("finished_at %v, want %v", r.FinishedAt, start.Add(tc.duration))
		}
	}
	e.clock.Advance(time.Hour)
	if r := scanReport(t, edr, ids[2]); r.Status != connectors.ScanFinished || !r.FinishedAt.Equal(start.Add(simulated.DefaultFullScan)) {
		t.Fatalf("full scan %+v", r)
	}

	// The finish is persisted: a set whose clock still reads the start time
	// sees it finished.
	early := simulated.New(e.st, simulated.WithClock(func() time.Time { return start }))
	if r := scanReport(t, early.EDR, ids[0]); r.Status != connectors.ScanFinished {
		t.Fatalf("finish not persisted: %+v", r)
	}

	_, err := edr.Scan(ctx, "scan-missing")
	mustPermanent(t, err, "scan scan-missing not found")
	_, err = edr.StartScan(ctx, "k-bad", "srv-a", "deep")
	mustPermanent(t, err, "scan_type must be one of: quick, full")
}

func TestScanFindingsAreDeterministic(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	edr := e.set.EDR
	short := simulated.New(e.st, simulated.WithClock(e.clock.Now), simulated.WithScanDurations(time.Second, 2*time.Second))

	sawClean, sawFindings := false, false
	for i := range 16 {
		host := "host-" + string(rune('a'+i))
		var reports []connectors.ScanReport
		for j, set := range []connectors.Set{e.set, short} {
			res := mustOK(t)(set.EDR.StartScan(ctx, host+"-"+string(rune('0'+j)), host, "full"))
			e.clock.Advance(time.Minute)
			reports = append(reports, scanReport(t, edr, res.Output["scan_id"].(string)))
		}
		if reports[0].Status != connectors.ScanFinished || reports[1].Status != connectors.ScanFinished {
			t.Fatalf("scans not finished: %+v", reports)
		}
		if !reflect.DeepEqual(reports[0].Findings, reports[1].Findings) {
			t.Fatalf("%s: findings differ between scans: %v vs %v", host, reports[0].Findings, reports[1].Findings)
		}
		n := len(reports[0].Findings)
		if n > 3 {
			t.Fatalf("%s: %d findings, want at most 3", host, n)
		}
		for _, f := range reports[0].Findings {
			if f.Name == "" || f.Severity == "" || f.Path == "" {
				t.Fatalf("incomplete finding %+v", f)
			}
		}
		sawClean = sawClean || n == 0
		sawFindings = sawFindings || n > 0
	}
	if !sawClean || !sawFindings {
		t.Fatalf("16 hosts should include clean and infected ones (clean %v, findings %v)", sawClean, sawFindings)
	}
}
