package api_test

import (
	"bytes"
	"context"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/vigil-soc/vigil/internal/testenv"
	"github.com/vigil-soc/vigil/store"
)

// alertmanagerBin finds the Prometheus Alertmanager the intake is tested
// against (scripts/alertmanager.sh installs the pinned version into
// ./bin). Without one the test is skipped, unless
// VIGIL_REQUIRE_ALERTMANAGER is set, as it is in CI.
func alertmanagerBin(t *testing.T) string {
	t.Helper()
	path := os.Getenv("VIGIL_ALERTMANAGER_BIN")
	if path == "" {
		path, _ = filepath.Abs("../bin/alertmanager")
	}
	if _, err := os.Stat(path); err != nil {
		if os.Getenv("VIGIL_REQUIRE_ALERTMANAGER") != "" {
			t.Fatalf("Alertmanager not found at %s (run scripts/alertmanager.sh or set VIGIL_ALERTMANAGER_BIN)", path)
		}
		t.Skipf("Alertmanager not found at %s; run scripts/alertmanager.sh", path)
	}
	return path
}

// freeAddr picks a free loopback port.
func freeAddr(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().String()
}

// alertmanagerConfig routes alerts labelled team=intruder to a receiver
// holding a wrong token and every other alert to Vigil with the source's
// bearer token. Group timings are tiny so that notifications follow
// alerts within a second.
const alertmanagerConfig = `route:
  receiver: vigil
  group_by: [alertname]
  group_wait: 100ms
  group_interval: 300ms
  repeat_interval: 1h
  routes:
    - receiver: intruder
      matchers: ['team="intruder"']
receivers:
  - name: vigil
    webhook_configs:
      - url: %[1]s
        send_resolved: true
        http_config:
          authorization: {type: Bearer, credentials: %[2]s}
  - name: intruder
    webhook_configs:
      - url: %[1]s
        send_resolved: false
        http_config:
          authorization: {type: Bearer, credentials: not-the-token}
`

// startAlertmanager runs Alertmanager with cfg and returns its base URL.
func startAlertmanager(t *testing.T, cfg string) string {
	t.Helper()
	bin := alertmanagerBin(t)
	dir := t.TempDir()
	cfgPath := filepath.Join(dir, "alertmanager.yml")
	if err := os.WriteFile(cfgPath, []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	addr := freeAddr(t)
	ctx, cancel := context.WithCancel(context.Background())
	var logs bytes.Buffer
	cmd := exec.CommandContext(ctx, bin, "--config.file="+cfgPath, "--storage.path="+dir,
		"--web.listen-address="+addr, "--cluster.listen-address=", "--log.level=warn")
	cmd.Stdout, cmd.Stderr = &logs, &logs
	if err := cmd.Start(); err != nil {
		cancel()
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cancel()
		_ = cmd.Wait()
		if t.Failed() {
			t.Logf("alertmanager output:\n%s", logs.String())
		}
	})
	base := "http://" + addr
	testenv.Eventually(t, 30*time.Second, func() bool {
		res, err := http.Get(base + "/-/ready")
		if err != nil {
			return false
		}
		res.Body.Close()
		return res.StatusCode == http.StatusOK
	}, "alertmanager never became ready")
	return base
}

// postAlerts posts alerts to Alertmanager's v2 API, as Prometheus does.
func postAlerts(t *testing.T, base string, alerts []map[string]any) {
	t.Helper()
	res, err := http.Post(base+"/api/v2/alerts", "application/json", bytes.NewReader(mustJSON(alerts)))
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusOK {
		t.Fatalf("alertmanager refused the alerts: %d", res.StatusCode)
	}
}

// TestRealAlertmanagerDelivers drives the intake with a real Prometheus
// Alertmanager: a firing alert becomes an incident that is triaged, its
// resolution resolves that incident, and a receiver with a wrong token is
// refused and counted.
func TestRealAlertmanagerDelivers(t *testing.T) {
	alertmanagerBin(t)
	source := "am-" + randomSuffix()
	r := call(t, http.MethodPost, "/api/webhooks", keyFor(t, store.RoleManager), map[string]any{
		"source": source, "format": "alertmanager", "auth_mode": "bearer", "auto_triage": true,
		"resolve_incidents": true, "severity_mapping": map[string]any{"page": "critical"}})
	expectStatus(t, r, http.StatusCreated)
	token := r.data()["token"].(string)
	base := startAlertmanager(t, fmt.Sprintf(alertmanagerConfig, env.server.URL+"/api/webhooks/"+source, token))

	started := time.Now().Add(-time.Minute).UTC()
	alert := map[string]any{
		"labels": map[string]any{"alertname": "RansomwareBehaviour", "instance": "fin-ws-042", "severity": "page",
			"run": randomSuffix()},
		"annotations":  map[string]any{"summary": "Mass file encryption on fin-ws-042", "description": "vssadmin delete shadows /all /quiet"},
		"startsAt":     started.Format(time.RFC3339),
		"generatorURL": "http://prometheus.example.org/graph",
	}
	postAlerts(t, base, []map[string]any{alert})

	var inc *store.Incident
	testenv.Eventually(t, 30*time.Second, func() bool {
		rows := incidentsOf(t, source)
		if len(rows) == 0 {
			return false
		}
		inc = &rows[0]
		return true
	}, "alertmanager's notification never became an incident")
	if inc.ExternalID == "" || inc.Severity != "critical" || !strings.HasPrefix(inc.Title, "RansomwareBehaviour: Mass file encryption") {
		t.Fatalf("incident from alertmanager: %+v", inc)
	}
	testenv.Eventually(t, 60*time.Second, func() bool {
		got, err := env.store.GetIncident(context.Background(), inc.ID)
		return err == nil && got.Status == store.StatusTriaged && got.TriagedAt != nil
	}, "incident %s never triaged", inc.IncidentNumber)

	// Resolving the alert at Alertmanager sends the resolved notification.
	alert["endsAt"] = time.Now().UTC().Format(time.RFC3339)
	postAlerts(t, base, []map[string]any{alert})
	testenv.Eventually(t, 30*time.Second, func() bool {
		got, err := env.store.GetIncident(context.Background(), inc.ID)
		return err == nil && got.Status == store.StatusResolved && strings.Contains(got.Resolution, "Alert resolved at the sender")
	}, "the resolved notification never resolved %s", inc.IncidentNumber)
	rows := incidentsOf(t, source)
	if len(rows) != 1 {
		t.Fatalf("the resolution created an incident: %d incidents", len(rows))
	}
	if rows[0].Occurrences != 1 {
		t.Errorf("occurrences %d", rows[0].Occurrences)
	}

	// A receiver with the wrong token is refused, and the refusal counted.
	postAlerts(t, base, []map[string]any{{"labels": map[string]any{"alertname": "Intruder", "team": "intruder"},
		"startsAt": time.Now().UTC().Format(time.RFC3339)}})
	want := `webhook_errors_total{reason="auth",source="` + source + `"}`
	testenv.Eventually(t, 30*time.Second, func() bool {
		return strings.Contains(string(call(t, http.MethodGet, "/metrics", "", nil).Raw), want)
	}, "a wrong token was never refused and counted")
	if n := len(incidentsOf(t, source)); n != 1 {
		t.Fatalf("the wrong token's alert made an incident: %d incidents", n)
	}
}

// incidentsOf lists the incidents a webhook source made, newest first.
func incidentsOf(t *testing.T, source string) []store.Incident {
	t.Helper()
	var rows []store.Incident
	if err := env.store.DB().Where("external_source = ?", source).Order("created_at DESC").Find(&rows).Error; err != nil {
		t.Fatal(err)
	}
	return rows
}
