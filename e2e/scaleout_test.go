package e2e

import (
	"bytes"
	"context"
	"encoding/base64"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/vigil-soc/vigil/intake"
	"github.com/vigil-soc/vigil/internal/testenv"
	"github.com/vigil-soc/vigil/store"
)

// proc is one `vigil api` or `vigil worker` process under test.
type proc struct {
	cmd  *exec.Cmd
	addr string // the address whose /ready says it is up
	logs *bytes.Buffer
}

func freePort(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

// cluster is two `vigil api` and two `vigil worker` processes on one
// Temporal dev server and one PostgreSQL database.
type cluster struct {
	workers []*proc
	apis    []string // base URLs
	st      *store.Store
}

// startCluster builds vigil, starts the processes and waits until each is
// ready; the rate limits are raised, since one key drives the whole test.
func startCluster(t *testing.T) *cluster {
	t.Helper()
	if os.Getenv("TEST_DATABASE_URL") == "" {
		t.Skip("several processes share one database: needs TEST_DATABASE_URL")
	}
	ctx := context.Background()
	tmp, err := testenv.StartTemporal(ctx)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(tmp.Stop)
	dir := t.TempDir()
	bin := buildVigil(t)
	dbURL := testenv.DatabaseURL(t)
	env := append(os.Environ(),
		"DATABASE_URL="+dbURL, "TEMPORAL_ADDRESS="+tmp.Server.FrontendHostPort(),
		"TEMPORAL_CONFIG_FILE="+filepath.Join(dir, "none.toml"),
		"VIGIL_BOOTSTRAP_ADMIN_KEY="+adminKey, "VIGIL_SECRET_KEY=scale-out-secret-key-0123456789",
		"VIGIL_PAYLOAD_KEYS=k1:"+base64.StdEncoding.EncodeToString(bytes.Repeat([]byte{9}, 32)),
		"VIGIL_LOG_LEVEL=warn", "VIGIL_SHUTDOWN_TIMEOUT=5s")
	procs := []*proc{startVigil(t, bin, "worker", env), startVigil(t, bin, "worker", env),
		startVigil(t, bin, "api", env), startVigil(t, bin, "api", env)}
	st, err := store.Open(ctx, dbURL, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	c := &cluster{workers: procs[:2], apis: []string{"http://" + procs[2].addr, "http://" + procs[3].addr}, st: st}
	if code, out := c.call(t, 0, http.MethodPut, "/api/settings/rate_limits", adminKey, map[string]any{
		"read_per_minute": 100000, "write_per_minute": 100000, "triage_per_minute": 100000}); code != http.StatusOK {
		t.Fatalf("raise rate limits: %d %v", code, out)
	}
	return c
}

// call sends one JSON request to API process i.
func (c *cluster) call(t *testing.T, i int, method, path, key string, body any) (int, map[string]any) {
	t.Helper()
	return testenv.CallJSON(t, method, c.apis[i%len(c.apis)]+path, key, body)
}

// TestScaleOutTwoAPIsTwoWorkers runs two `vigil api` and two `vigil worker`
// processes on one Temporal dev server and one PostgreSQL: a webhook burst
// spread over both APIs becomes one triaged incident per alert, nothing
// lost or doubled; an action requested through one API and approved
// through the other completes once; the kill switch turned on through one
// API stops connector calls on both workers; and a worker killed with
// SIGKILL in the middle of a burst leaves every alert and action to the
// other, each done once.
func TestScaleOutTwoAPIsTwoWorkers(t *testing.T) {
	c := startCluster(t)
	if code, out := c.call(t, 0, http.MethodPost, "/api/webhooks", adminKey,
		map[string]any{"source": "edr", "secret": webhookSecret, "auto_triage": true}); code != http.StatusCreated {
		t.Fatalf("register webhook: %d %v", code, out)
	}
	t.Run("webhook burst over both APIs", c.testBurst)
	t.Run("approval through either API", c.testApprovalOnce)
	t.Run("kill switch reaches both workers", c.testKillSwitchBothWorkers)
	t.Run("worker killed mid-burst", c.testWorkerKilledMidBurst)
}

// webhookSecret signs the test's alerts.
const webhookSecret = "scale-out-webhook-secret"

// postAlert sends one signed EDR detection through API process i.
func (c *cluster) postAlert(i int, detectID string) error {
	body := fmt.Sprintf(`{"metadata":{"eventType":"DetectionSummaryEvent","eventCreationTime":1763712000000},`+
		`"event":{"DetectId":"ldt:%s","Severity":4,"HostnameField":"ws-%s","DetectName":"Ransomware.Conti"}}`, detectID, detectID)
	ts := time.Now().Unix()
	req, _ := http.NewRequest(http.MethodPost, c.apis[i%len(c.apis)]+"/api/webhooks/edr", strings.NewReader(body))
	req.Header.Set("X-Webhook-Timestamp", strconv.FormatInt(ts, 10))
	req.Header.Set("X-Webhook-Signature", intake.Sign(webhookSecret, ts, []byte(body)))
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	res.Body.Close()
	if res.StatusCode != http.StatusCreated && res.StatusCode != http.StatusAccepted {
		return fmt.Errorf("alert %s: status %d", detectID, res.StatusCode)
	}
	return nil
}

// incidentCounts reads /api/metrics' incident totals.
func (c *cluster) incidentCounts(t *testing.T) map[string]any {
	_, out := c.call(t, 1, http.MethodGet, "/api/metrics", adminKey, nil)
	d, _ := out["data"].(map[string]any)
	inc, _ := d["incidents"].(map[string]any)
	return inc
}

// The burst: alerts spread over both APIs at once.
func (c *cluster) testBurst(t *testing.T) {
	const alerts = 30
	var wg sync.WaitGroup
	errs := make(chan error, alerts)
	for i := range alerts {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := c.postAlert(i, "scale-"+strconv.Itoa(i)); err != nil {
				errs <- err
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	var counts map[string]any
	testenv.Eventually(t, 120*time.Second, func() bool {
		counts = c.incidentCounts(t)
		return counts != nil && counts["total"] == float64(alerts) && counts["triaged"] == float64(alerts)
	}, "burst over two APIs: want %d incidents all triaged", alerts)
	t.Logf("after the burst: %v", counts)
}

// An approval through the other API completes the action once.
func (c *cluster) testApprovalOnce(t *testing.T) {
	ctx := context.Background()
	u, err := c.st.CreateUser(ctx, store.NewUser{Username: "scale-manager", Email: "scale-manager@corp.example", Role: store.RoleManager})
	if err != nil {
		t.Fatal(err)
	}
	_, managerKey, err := c.st.CreateAPIKey(ctx, u.ID, "test", nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	_, list := c.call(t, 0, http.MethodGet, "/api/incidents?per_page=1", adminKey, nil)
	incID := list["data"].([]any)[0].(map[string]any)["id"].(string)
	code, req := c.call(t, 0, http.MethodPost, "/api/incidents/"+incID+"/actions", adminKey,
		map[string]any{"action": "isolate_host", "parameters": map[string]any{"host_id": "scale-host", "reason": "beaconing"}})
	data, _ := req["data"].(map[string]any)
	if code != http.StatusCreated || data["status"] != "pending_approval" {
		t.Fatalf("isolate_host request: %d %v", code, req)
	}
	actionID := data["action_id"].(string)
	codes := make([]int, 2)
	var awg sync.WaitGroup
	for i := range 2 {
		awg.Add(1)
		go func() {
			defer awg.Done()
			codes[i], _ = c.call(t, i, http.MethodPost, "/api/actions/"+actionID+"/approve", managerKey, nil)
		}()
	}
	awg.Wait()
	okCount := 0
	for _, code := range codes {
		if code == http.StatusOK || code == http.StatusAccepted {
			okCount++
		}
	}
	if okCount < 1 {
		t.Fatalf("approvals through both APIs: %v", codes)
	}
	testenv.Eventually(t, 60*time.Second, func() bool {
		_, out := c.call(t, 1, http.MethodGet, "/api/actions/"+actionID, adminKey, nil)
		d, _ := out["data"].(map[string]any)
		return d["status"] == "completed"
	}, "approved action never completed")
	// Completed once: one execution recorded and the host isolated once.
	_, acts := c.call(t, 0, http.MethodGet, "/api/actions?action_type=isolate_host&per_page=100", adminKey, nil)
	n := 0
	for _, a := range acts["data"].([]any) {
		m := a.(map[string]any)
		params, _ := m["parameters"].(map[string]any)
		if m["status"] == "completed" && (params == nil || params["host_id"] == "scale-host") {
			n++
		}
	}
	if n != 1 {
		t.Fatalf("%d completed isolate_host actions, want 1 (approve codes %v)", n, codes)
	}
}
