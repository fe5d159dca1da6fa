package notify_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/cookiejar"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/vigil-soc/vigil/internal/testenv"
	"github.com/vigil-soc/vigil/store"
)

// vigilProcess is `vigil serve` as a child process.
type vigilProcess struct {
	cmd  *exec.Cmd
	base string
}

func startVigil(t *testing.T, bin string, env []string) *vigilProcess {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	_ = ln.Close()
	cmd := exec.Command(bin, "serve")
	cmd.Env = append(os.Environ(), append(env, "VIGIL_HTTP_ADDR="+addr, "VIGIL_LOG_LEVEL=warn")...)
	if os.Getenv("VIGIL_TEST_LOG") != "" {
		cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	p := &vigilProcess{cmd: cmd, base: "http://" + addr}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	testenv.Eventually(t, time.Minute, func() bool {
		res, err := http.Get(p.base + "/ready")
		if err == nil {
			res.Body.Close()
		}
		return err == nil && res.StatusCode == http.StatusOK
	}, "vigil did not become ready")
	return p
}

func (p *vigilProcess) post(t *testing.T, path, key string, body any) map[string]any {
	status, out := testenv.CallJSON(t, http.MethodPost, p.base+path, key, body)
	if status >= 300 {
		t.Fatalf("POST %s: %d %v", path, status, out)
	}
	return out
}

// Vigil killed with SIGKILL mid-burst delivers every message after it is
// started again, and its log holds exactly one entry per (event, channel).
func TestKilledMidBurstDeliversAll(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the vigil binary")
	}
	temporalClient(t)
	bin := filepath.Join(t.TempDir(), "vigil")
	build := exec.Command("go", "build", "-o", bin, "../cmd/vigil")
	build.Env = append(os.Environ(), "GOTOOLCHAIN=local")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("build vigil: %v\n%s", err, out)
	}
	dbURL := testenv.DatabaseURL(t)
	const key = "kill-test-admin-key-0123456789"
	env := []string{"DATABASE_URL=" + dbURL, "TEMPORAL_ADDRESS=" + temporalOnce.t.Server.FrontendHostPort(),
		"VIGIL_SECRET_KEY=test-secret-key-0123456789abcdef", "VIGIL_BOOTSTRAP_ADMIN_KEY=" + key}
	p := newPeer(t, slackCheck)
	v := startVigil(t, bin, env)

	st, err := store.Open(context.Background(), dbURL, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if _, err := st.PutSetting(context.Background(), "outbound",
		map[string]any{"allow_http": true, "allow_hosts": []any{"127.0.0.1"}}, "test"); err != nil {
		t.Fatal(err)
	}
	ch := v.post(t, "/api/notifications/channels", key, map[string]any{"name": "kill", "channel_type": "chat_a",
		"events": []string{"incident_created"}, "config": map[string]any{"webhook_url": p.URL + "/hook", "rate_per_minute": 600}})
	chID := ch["data"].(map[string]any)["id"].(string)
	const n = 30
	for i := range n {
		// Straight into the store: the API's write limit would slow the burst.
		if _, err := st.CreateIncident(context.Background(), store.NewIncident{Title: fmt.Sprintf("kill %d", i),
			IncidentType: "malware", Severity: "high", Source: "edr", CreatedBy: "test"}); err != nil {
			t.Fatal(err)
		}
	}
	testenv.Eventually(t, time.Minute, func() bool { return p.count() >= 5 }, "first deliveries")
	if err := v.cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	_ = v.cmd.Wait()
	killedAt := p.count()
	v2 := startVigil(t, bin, env)

	var rows []store.NotificationDelivery
	testenv.Eventually(t, 3*time.Minute, func() bool {
		rows, _, err = st.ListDeliveries(context.Background(), store.DeliveryFilter{ChannelID: chID}, store.Page{})
		if err != nil || len(rows) < n {
			return false
		}
		for _, d := range rows {
			if d.Status != store.DeliverySent {
				return false
			}
		}
		return true
	}, "not every delivery was sent: %s", summary(rows))
	events := map[string]bool{}
	for _, d := range rows {
		if events[d.EventID] {
			t.Fatalf("two log entries for event %s", d.EventID)
		}
		events[d.EventID] = true
	}
	if len(rows) != n {
		t.Fatalf("%d log entries, want %d", len(rows), n)
	}
	_, headers, _, problems := p.snapshot()
	if len(problems) > 0 {
		t.Fatal(problems)
	}
	seen := map[string]int{}
	for _, h := range headers {
		seen[h.Get("X-Svc-Delivery")]++
	}
	for _, d := range rows {
		if seen[d.ID] == 0 {
			t.Errorf("delivery %s never arrived", d.ID)
		}
	}
	t.Logf("killed after %d of %d messages; %d requests in all (%d repeated after the kill)", killedAt, n, len(headers), len(headers)-n)
	checkDashboard(t, st, v2, chID)
}

// checkDashboard signs a manager in and reads the notification pages.
func checkDashboard(t *testing.T, st *store.Store, v *vigilProcess, channelID string) {
	const pw = "correct horse battery staple"
	if _, err := st.CreateUser(context.Background(), store.NewUser{Username: "pager-manager", Email: "pm@example.com",
		Role: store.RoleManager, Password: pw}); err != nil {
		t.Fatal(err)
	}
	jar, _ := cookiejar.New(nil)
	hc := &http.Client{Jar: jar}
	b, _ := json.Marshal(map[string]string{"login": "pager-manager", "password": pw})
	req, _ := http.NewRequest(http.MethodPost, v.base+"/login", bytes.NewReader(b))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Origin", v.base)
	res, err := hc.Do(req)
	if err != nil || res.StatusCode != http.StatusOK {
		t.Fatalf("sign in: %v %v", err, res)
	}
	res.Body.Close()
	for path, want := range map[string]string{
		"/notifications":                                    "Send test",
		"/notifications/" + channelID:                       "Edit kill",
		"/notifications/deliveries?channel_id=" + channelID: "b-sent",
		"/incidents":                                        `href="/notifications"`,
	} {
		res, err := hc.Get(v.base + path)
		if err != nil {
			t.Fatal(err)
		}
		page, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if res.StatusCode != http.StatusOK || !strings.Contains(string(page), want) {
			t.Errorf("GET %s: %d, want %q in the page", path, res.StatusCode, want)
		}
	}
}
