package app_test

import (
	"context"
	"encoding/json"
	"net"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/vigil-soc/vigil/app"
	"github.com/vigil-soc/vigil/intake"
	"github.com/vigil-soc/vigil/internal/testenv"
)

func freeAddr(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

// TestServeRunsAPIAndWorkerAndStopsCleanly starts `vigil serve` in-process
// against a real dev server, triages an incident through it, then cancels
// the context as SIGINT would and expects a clean return.
func TestServeRunsAPIAndWorkerAndStopsCleanly(t *testing.T) {
	ctx := context.Background()
	tmp, err := testenv.StartTemporal(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer tmp.Stop()

	cfg, err := app.ConfigFromEnv()
	if err != nil {
		t.Fatal(err)
	}
	cfg.HTTPAddr = freeAddr(t)
	cfg.DatabaseURL = t.TempDir() + "/vigil.db"
	cfg.TemporalAddress = tmp.Server.FrontendHostPort()
	cfg.BootstrapAdminKey = "serve-test-admin-key-0123456789"
	cfg.SecretKey = "serve-test-secret-key-0123456789"
	cfg.ShutdownTimeout = 10 * time.Second

	runCtx, cancel := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() { done <- app.Run(runCtx, cfg, app.ModeServe, testenv.Logger()) }()

	base := "http://" + cfg.HTTPAddr
	testenv.Eventually(t, 30*time.Second, func() bool {
		res, err := http.Get(base + "/ready")
		if err != nil {
			return false
		}
		res.Body.Close()
		return res.StatusCode == http.StatusOK
	}, "vigil serve never became ready")

	post := func(path, body string) map[string]any {
		req, _ := http.NewRequest(http.MethodPost, base+path, strings.NewReader(body))
		req.Header.Set("Authorization", "Bearer "+cfg.BootstrapAdminKey)
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		var out map[string]any
		_ = json.NewDecoder(res.Body).Decode(&out)
		if res.StatusCode >= 300 {
			t.Fatalf("POST %s: %d %v", path, res.StatusCode, out)
		}
		return out["data"].(map[string]any)
	}
	inc := post("/api/incidents", `{"incident_type":"malware","source":"edr","severity":"critical",
		"raw_data":{"DetectName":"Ransomware.Conti","CommandLine":"vssadmin delete shadows /all /quiet","HostnameField":"fin-ws-042"}}`)
	tri := post("/api/incidents/"+inc["id"].(string)+"/triage", `{}`)
	if tri["status"] != "completed" || tri["verdict"].(map[string]any)["classification"] != "malicious" {
		t.Fatalf("triage through vigil serve: %v", tri)
	}

	// Webhook secrets are sealed with VIGIL_SECRET_KEY, and the intake
	// queue's dispatcher starts automated triage.
	post("/api/webhooks", `{"source":"edr","secret":"serve-test-webhook-secret","auto_triage":true}`)
	body := `{"metadata":{"eventType":"DetectionSummaryEvent","eventCreationTime":1763712000000},` +
		`"event":{"DetectId":"ldt:serve","Severity":4,"HostnameField":"fin-ws-042","DetectName":"Ransomware.Conti"}}`
	ts := time.Now().Unix()
	req, _ := http.NewRequest(http.MethodPost, base+"/api/webhooks/edr", strings.NewReader(body))
	req.Header.Set("X-Webhook-Timestamp", strconv.FormatInt(ts, 10))
	req.Header.Set("X-Webhook-Signature", intake.Sign("serve-test-webhook-secret", ts, []byte(body)))
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	var accepted map[string]any
	_ = json.NewDecoder(res.Body).Decode(&accepted)
	res.Body.Close()
	if res.StatusCode != http.StatusCreated {
		t.Fatalf("signed alert through vigil serve: %d %v", res.StatusCode, accepted)
	}
	testenv.Eventually(t, 30*time.Second, func() bool {
		req, _ := http.NewRequest(http.MethodGet, base+"/api/incidents/"+accepted["incident_id"].(string), nil)
		req.Header.Set("Authorization", "Bearer "+cfg.BootstrapAdminKey)
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			return false
		}
		defer res.Body.Close()
		var got map[string]map[string]any
		_ = json.NewDecoder(res.Body).Decode(&got)
		return got["data"]["status"] == "triaged"
	}, "the alert's incident was never triaged automatically")

	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("Run returned %v after cancellation, want nil", err)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("Run did not return after cancellation")
	}
	if _, err := http.Get(base + "/live"); err == nil {
		t.Fatal("HTTP server still answering after shutdown")
	}
}

func TestConfigFromEnvRejectsBadValues(t *testing.T) {
	for name, value := range map[string]string{
		"VIGIL_MAX_BODY_BYTES": "-1",
		"VIGIL_TRIAGE_WAIT":    "soon",
		"VIGIL_AUTO_MIGRATE":   "maybe",
	} {
		t.Run(name, func(t *testing.T) {
			t.Setenv(name, value)
			if _, err := app.ConfigFromEnv(); err == nil || !strings.Contains(err.Error(), name) {
				t.Fatalf("%s=%q accepted or error does not name it: %v", name, value, err)
			}
		})
	}
	t.Setenv("VIGIL_LOG_FORMAT", "xml")
	cfg, err := app.ConfigFromEnv()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := cfg.NewLogger(); err == nil {
		t.Fatal("log format xml accepted")
	}
}
