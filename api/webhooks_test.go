package api_test

import (
	"context"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/vigil-soc/vigil/intake"
	"github.com/vigil-soc/vigil/internal/testenv"
	"github.com/vigil-soc/vigil/store"
)

// registerSource registers a webhook source and returns its secret.
func registerSource(t *testing.T, name string, extra map[string]any) string {
	t.Helper()
	secret := "whsec-" + randomSuffix() + "-" + randomSuffix()
	body := map[string]any{"source": name, "secret": secret}
	for k, v := range extra {
		body[k] = v
	}
	r := call(t, http.MethodPost, "/api/webhooks", keyFor(t, store.RoleManager), body)
	expectStatus(t, r, http.StatusCreated)
	return secret
}

// deliver posts a signed alert as a sender would.
func deliver(t *testing.T, source, secret, body string, at time.Time) response {
	t.Helper()
	ts := at.Unix()
	return doRequest(t, http.DefaultClient, env.server.URL, http.MethodPost, "/api/webhooks/"+source, "", body, map[string]string{
		"X-Webhook-Signature": intake.Sign(secret, ts, []byte(body)),
		"X-Webhook-Timestamp": strconv.FormatInt(ts, 10),
	})
}

const edrAlert = `{"metadata":{"eventType":"DetectionSummaryEvent","eventCreationTime":1763712000000},
 "event":{"DetectId":"ldt:%s","Severity":4,"HostnameField":"fin-ws-042","DetectName":"Ransomware.Conti",
 "CommandLine":"vssadmin delete shadows /all /quiet","SHA256String":"9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08"}}`

func TestWebhookSourceRegistration(t *testing.T) {
	name := "src-" + randomSuffix()
	r := call(t, http.MethodPost, "/api/webhooks", keyFor(t, store.RoleAnalyst), map[string]any{"source": name, "secret": "0123456789abcdefgh"})
	expectStatus(t, r, http.StatusForbidden)
	bad := call(t, http.MethodPost, "/api/webhooks", keyFor(t, store.RoleManager),
		map[string]any{"source": "Bad Name", "secret": "short", "severity_mapping": map[string]any{"P1": "urgent"}})
	expectStatus(t, bad, http.StatusUnprocessableEntity)
	for _, f := range []string{"source", "secret", "severity_mapping.P1"} {
		if _, ok := bad.errDetails()[f]; !ok {
			t.Errorf("details do not name %q: %s", f, bad.Raw)
		}
	}
	secret := registerSource(t, name, map[string]any{"auto_triage": true, "severity_mapping": map[string]any{"P1": "critical"}})
	got := call(t, http.MethodGet, "/api/webhooks/"+name, keyFor(t, store.RoleManager), nil)
	expectStatus(t, got, http.StatusOK)
	if strings.Contains(string(got.Raw), secret) || got.data()["secret_set"] != true || got.data()["auto_triage"] != true {
		t.Fatalf("source read: %s", got.Raw)
	}
	var row store.WebhookSource
	env.store.DB().Take(&row, "source = ?", name)
	if strings.Contains(row.SecretEncrypted, secret) || row.SecretEncrypted == "" {
		t.Fatal("webhook secret stored in clear")
	}
	list := call(t, http.MethodGet, "/api/webhooks", keyFor(t, store.RoleManager), nil)
	if !strings.Contains(string(list.Raw), name) || strings.Contains(string(list.Raw), secret) {
		t.Fatalf("source list: %s", list.Raw)
	}
	expectStatus(t, call(t, http.MethodDelete, "/api/webhooks/"+name, keyFor(t, store.RoleManager), nil), http.StatusNoContent)
	expectStatus(t, call(t, http.MethodGet, "/api/webhooks/"+name, keyFor(t, store.RoleManager), nil), http.StatusNotFound)
}

func TestWebhookSignatureChecks(t *testing.T) {
	name := "sig-" + randomSuffix()
	secret := registerSource(t, name, nil)
	body := strings.Replace(edrAlert, "%s", randomSuffix(), 1)
	now := time.Now()

	cases := []struct {
		name   string
		source string
		secret string
		at     time.Time
		status int
		code   string
	}{
		{"wrong secret", name, "not-the-secret-at-all", now, 401, "invalid_signature"},
		{"expired", name, secret, now.Add(-5*time.Minute - 5*time.Second), 401, "timestamp_expired"},
		{"from the future", name, secret, now.Add(5 * time.Minute), 401, "timestamp_expired"},
		{"unknown source", "no-such-" + randomSuffix(), secret, now, 404, "unknown_source"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := deliver(t, tc.source, tc.secret, body, tc.at)
			expectStatus(t, r, tc.status)
			if r.errCode() != tc.code {
				t.Fatalf("code %q, want %q: %s", r.errCode(), tc.code, r.Raw)
			}
		})
	}
	unsigned := doRequest(t, http.DefaultClient, env.server.URL, http.MethodPost, "/api/webhooks/"+name, "", body, nil)
	expectStatus(t, unsigned, http.StatusUnauthorized)

	ts := now.Unix()
	headers := map[string]string{"X-Webhook-Signature": intake.Sign(secret, ts, []byte(body)), "X-Webhook-Timestamp": strconv.FormatInt(ts, 10)}
	first := doRequest(t, http.DefaultClient, env.server.URL, http.MethodPost, "/api/webhooks/"+name, "", body, headers)
	expectStatus(t, first, http.StatusCreated)
	if first.Body["status"] != "accepted" || first.Body["incident_number"] == nil {
		t.Fatalf("accepted alert: %s", first.Raw)
	}
	replay := doRequest(t, http.DefaultClient, env.server.URL, http.MethodPost, "/api/webhooks/"+name, "", body, headers)
	expectStatus(t, replay, http.StatusConflict)
	if replay.errCode() != "replay_detected" {
		t.Fatalf("replay: %s", replay.Raw)
	}
	tampered := doRequest(t, http.DefaultClient, env.server.URL, http.MethodPost, "/api/webhooks/"+name, "", strings.Replace(body, "fin-ws-042", "fin-ws-043", 1), headers)
	expectStatus(t, tampered, http.StatusUnauthorized)
}

func TestWebhookFormatsBecomeIncidents(t *testing.T) {
	name := "fmt-" + randomSuffix()
	secret := registerSource(t, name, map[string]any{"severity_mapping": map[string]any{"sev-a": "critical"}})
	id := randomSuffix()
	cases := []struct {
		name, body, typ, severity string
	}{
		{"generic", `{"event_type":"suspicious_login","timestamp":"2026-11-21T09:00:00Z","source":"idp","data":{"alert_id":"g-` + id + `","severity":"sev-a","details":{"user":"jane@corp.example","src_ip":"185.220.101.7"}}}`, "suspicious login", "critical"},
		{"email security", `{"eventType":"Phishing","id":"e-` + id + `","creationTime":"2026-11-21T09:00:00Z","severity":"High","category":"phishing","entityType":"email","data":{"sender":"security@micros0ft-support.com","subject":"Verify your account","recipients":["jane@corp.example"]}}`, "phishing", "high"},
		{"endpoint", strings.Replace(edrAlert, "%s", id, 1), "malware", "critical"},
		{"log search", `{"result":{"host":"dc01","source":"WinEventLog:Security","sourcetype":"WinEventLog","_raw":"An account failed to log on","EventCode":"4625"},"search_name":"Brute force logons","trigger_time":1763712000}`, "suspicious login", "medium"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := deliver(t, name, secret, tc.body, time.Now())
			expectStatus(t, r, http.StatusCreated)
			inc := call(t, http.MethodGet, "/api/incidents/"+r.Body["incident_id"].(string), env.adminKey, nil).data()
			if inc["incident_type"] != tc.typ || inc["severity"] != tc.severity {
				t.Fatalf("incident from %s: type %v severity %v", tc.name, inc["incident_type"], inc["severity"])
			}
			if len(inc["raw_data"].(map[string]any)) == 0 {
				t.Fatal("raw_data lost")
			}
		})
	}
}

func TestWebhookRejectsUnknownPayloads(t *testing.T) {
	name := "rej-" + randomSuffix()
	secret := registerSource(t, name, nil)
	for label, body := range map[string]string{"not json": `<alert/>`, "no known format": `{"hello":"world"}`,
		"NUL character": `{"title":"x\u0000","severity":"high"}`} {
		r := deliver(t, name, secret, body, time.Now())
		expectStatus(t, r, http.StatusUnprocessableEntity)
		if label == "no known format" && r.errDetails()["expected"] == nil {
			t.Fatalf("422 does not say what was expected: %s", r.Raw)
		}
	}
}

func TestWebhookDeduplicatesUpstreamAlerts(t *testing.T) {
	name := "dup-" + randomSuffix()
	secret := registerSource(t, name, nil)
	body := strings.Replace(edrAlert, "%s", "dup-"+randomSuffix(), 1)
	signedAt := time.Now()
	first := deliver(t, name, secret, body, signedAt)
	expectStatus(t, first, http.StatusCreated)
	// Signed a second before the first delivery: a new delivery, never a
	// replay of the first, however long the steps above took.
	again := deliver(t, name, secret, body, signedAt.Add(-time.Second))
	expectStatus(t, again, http.StatusOK)
	if again.Body["incident_id"] != first.Body["incident_id"] || again.Body["deduplicated"] != true || again.Body["occurrences"] != 2.0 {
		t.Fatalf("second delivery of one alert: %s", again.Raw)
	}
}

func TestGenericWebhookUsesTheGenericSourcesSecret(t *testing.T) {
	secret := "generic-secret-" + randomSuffix()
	r := call(t, http.MethodPost, "/api/webhooks", keyFor(t, store.RoleManager), map[string]any{"source": "generic", "secret": secret})
	if r.Status != http.StatusCreated && r.Status != http.StatusOK {
		t.Fatalf("register generic: %s", r.Raw)
	}
	resp := deliver(t, "generic", secret, `{"title":"Impossible travel for jane","severity":"high","user":"jane@corp.example"}`, time.Now())
	expectStatus(t, resp, http.StatusCreated)
	inc := call(t, http.MethodGet, "/api/incidents/"+resp.Body["incident_id"].(string), env.adminKey, nil).data()
	if inc["severity"] != "high" {
		t.Fatalf("generic incident: %v", inc)
	}
}

func TestAutoTriageRunsAndRequestsActions(t *testing.T) {
	name := "auto-" + randomSuffix()
	secret := registerSource(t, name, map[string]any{"auto_triage": true})
	body := strings.Replace(edrAlert, "%s", randomSuffix(), 1)
	first := time.Now()
	r := deliver(t, name, secret, body, first)
	expectStatus(t, r, http.StatusCreated)
	id := r.Body["incident_id"].(string)
	testenv.Eventually(t, 30*time.Second, func() bool {
		return call(t, http.MethodGet, "/api/incidents/"+id, env.adminKey, nil).data()["status"] == "triaged"
	}, "auto triage never ran for %s", id)
	inc := call(t, http.MethodGet, "/api/incidents/"+id, env.adminKey, nil).data()
	if inc["verdict"].(map[string]any)["classification"] != "malicious" {
		t.Fatalf("verdict for a ransomware detection: %v", inc["verdict"])
	}
	var acts []any
	testenv.Eventually(t, 30*time.Second, func() bool {
		acts = call(t, http.MethodGet, "/api/incidents/"+id+"/actions", env.adminKey, nil).Body["data"].([]any)
		return len(acts) > 0
	}, "no recommended action was requested")
	byType := map[string]string{}
	for _, a := range acts {
		m := a.(map[string]any)
		byType[m["action_type"].(string)] = m["status"].(string)
		if m["requested_by"] != "triage-agent (automated)" {
			t.Fatalf("requested_by %v", m["requested_by"])
		}
	}
	// Policy decides: isolation waits for a senior, a scan runs at once.
	testenv.Eventually(t, 20*time.Second, func() bool {
		acts = call(t, http.MethodGet, "/api/incidents/"+id+"/actions", env.adminKey, nil).Body["data"].([]any)
		for _, a := range acts {
			m := a.(map[string]any)
			byType[m["action_type"].(string)] = m["status"].(string)
		}
		return byType["isolate_host"] == "pending_approval" && byType["scan_host"] == "completed"
	}, "recommended actions not decided by policy: %v", byType)
	// The same alert again joins the incident and requests nothing more.
	// Signed a second before the first delivery, so it is a new delivery
	// (not a replay) however long the steps above took.
	again := deliver(t, name, secret, body, first.Add(-time.Second))
	expectStatus(t, again, http.StatusOK)
	if again.Body["incident_id"] != id || again.Body["deduplicated"] != true {
		t.Fatalf("repeat delivery: %s", again.Raw)
	}
	testenv.Eventually(t, 10*time.Second, func() bool { n, _ := intakeBacklog(); return n == 0 }, "intake queue not drained")
	stored, _ := env.store.ListActions(context.Background(), store.ActionFilter{IncidentID: id})
	if len(stored) != len(acts) {
		t.Fatalf("a repeated alert requested actions again: %d stored, %d before", len(stored), len(acts))
	}
}

func TestWebhookMetrics(t *testing.T) {
	name := "met-" + randomSuffix()
	secret := registerSource(t, name, nil)
	expectStatus(t, deliver(t, name, secret, strings.Replace(edrAlert, "%s", randomSuffix(), 1), time.Now()), http.StatusCreated)
	expectStatus(t, deliver(t, name, "wrong-secret-0123456789", `{}`, time.Now()), http.StatusUnauthorized)
	text := string(call(t, http.MethodGet, "/metrics", "", nil).Raw)
	for _, want := range []string{
		`webhook_received_total{source="` + name + `"} 2`,
		`webhook_errors_total{reason="signature",source="` + name + `"} 1`,
	} {
		if !strings.Contains(text, want) {
			t.Errorf("/metrics lacks %s", want)
		}
	}
}
