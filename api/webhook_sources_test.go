package api_test

import (
	"net/http"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/vigil-soc/vigil/api"
	"github.com/vigil-soc/vigil/intake"
	"github.com/vigil-soc/vigil/store"
)

// registerTokenSource registers a source of a token mode and returns the
// token shown once in the answer.
func registerTokenSource(t *testing.T, body map[string]any) string {
	t.Helper()
	r := call(t, http.MethodPost, "/api/webhooks", keyFor(t, store.RoleManager), body)
	expectStatus(t, r, http.StatusCreated)
	token, _ := r.data()["token"].(string)
	if len(token) < 43 {
		t.Fatalf("token %q is shorter than 32 random bytes", token)
	}
	return token
}

// post sends a delivery with the given headers.
func post(t *testing.T, path, body string, headers map[string]string) response {
	t.Helper()
	return doRequest(t, http.DefaultClient, env.server.URL, http.MethodPost, path, "", body, headers)
}

func fixture(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile("../intake/testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestWebhookSourceModesAreValidated(t *testing.T) {
	mgr := keyFor(t, store.RoleManager)
	cases := []struct {
		name  string
		body  map[string]any
		field string
	}{
		{"auto takes only hmac", map[string]any{"auth_mode": "bearer"}, "auth_mode"},
		{"unknown format", map[string]any{"format": "nagios", "secret": "0123456789abcdefgh"}, "format"},
		{"unknown mode", map[string]any{"format": "splunk", "auth_mode": "mtls"}, "auth_mode"},
		{"token modes take no secret", map[string]any{"format": "grafana", "auth_mode": "bearer", "secret": "0123456789abcdefgh"}, "secret"},
		{"custom needs a mapping", map[string]any{"format": "custom", "auth_mode": "bearer"}, "mapping"},
		{"mapping only for custom", map[string]any{"format": "splunk", "auth_mode": "url_token", "mapping": map[string]any{"title": "payload.x"}}, "mapping"},
		{"basic user without colon", map[string]any{"format": "grafana", "auth_mode": "basic", "basic_username": "a:b"}, "basic_username"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			c.body["source"] = "v-" + randomSuffix()
			r := call(t, http.MethodPost, "/api/webhooks", mgr, c.body)
			expectStatus(t, r, http.StatusUnprocessableEntity)
			if _, ok := r.errDetails()[c.field]; !ok {
				t.Fatalf("details do not name %s: %s", c.field, r.Raw)
			}
		})
	}
	r := call(t, http.MethodPost, "/api/webhooks", mgr, map[string]any{"source": "v-" + randomSuffix(), "format": "custom",
		"auth_mode": "bearer", "mapping": map[string]any{"title": "payload.name +", "resolved": `"yes"`}})
	expectStatus(t, r, http.StatusUnprocessableEntity)
	for _, f := range []string{"mapping.title", "mapping.resolved"} {
		if msg, _ := r.errDetails()[f].(string); !strings.Contains(msg, "(line 1, column") {
			t.Errorf("%s: %q has no position", f, msg)
		}
	}
}

func TestBearerAndBasicSources(t *testing.T) {
	bearer := "bear-" + randomSuffix()
	token := registerTokenSource(t, map[string]any{"source": bearer, "format": "grafana", "auth_mode": "bearer"})
	var row store.WebhookSource
	env.store.DB().Take(&row, "source = ?", bearer)
	if row.TokenHash == "" || strings.Contains(row.TokenHash, token) || row.SecretEncrypted != "" {
		t.Fatalf("token not stored as a hash alone: %+v", row)
	}
	if got := call(t, http.MethodGet, "/api/webhooks/"+bearer, env.adminKey, nil); strings.Contains(string(got.Raw), token) ||
		got.data()["token_set"] != true || got.data()["auth_mode"] != "bearer" {
		t.Fatalf("source read: %s", got.Raw)
	}
	body := strings.ReplaceAll(fixture(t, "grafana_webhook.json"), "c6eadffa33fcdf37", "fp-"+randomSuffix())
	body = strings.ReplaceAll(body, "bc97ff14869b13e3", "fp-"+randomSuffix())
	ok := post(t, "/api/webhooks/"+bearer, body, map[string]string{"Authorization": "Bearer " + token})
	expectStatus(t, ok, http.StatusCreated)
	if alerts, _ := ok.Body["alerts"].([]any); len(alerts) != 2 {
		t.Fatalf("a group of two alerts: %s", ok.Raw)
	}
	for _, h := range []map[string]string{nil, {"Authorization": "Bearer " + token + "x"}, {"Authorization": "Basic " + token}} {
		r := post(t, "/api/webhooks/"+bearer, body, h)
		expectStatus(t, r, http.StatusUnauthorized)
		if r.errCode() != "invalid_token" || r.Header.Get("WWW-Authenticate") == "" {
			t.Fatalf("refusal: %s %v", r.Raw, r.Header)
		}
	}
	// A token in the path is refused for a header mode.
	expectStatus(t, post(t, "/api/webhooks/"+bearer+"/"+token, body, nil), http.StatusUnauthorized)
	metrics := string(call(t, http.MethodGet, "/metrics", "", nil).Raw)
	if want := `webhook_errors_total{reason="auth",source="` + bearer + `"} 4`; !strings.Contains(metrics, want) {
		t.Errorf("/metrics lacks %s", want)
	}

	basic := "basic-" + randomSuffix()
	pass := registerTokenSource(t, map[string]any{"source": basic, "format": "grafana", "auth_mode": "basic", "basic_username": "grafana"})
	req := func(user, pw string) response {
		hreq, _ := http.NewRequest(http.MethodPost, env.server.URL+"/api/webhooks/"+basic, strings.NewReader(body))
		hreq.SetBasicAuth(user, pw)
		res, err := http.DefaultClient.Do(hreq)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		return response{Status: res.StatusCode}
	}
	expectStatus(t, req("grafana", pass), http.StatusCreated)
	expectStatus(t, req("other", pass), http.StatusUnauthorized)
	expectStatus(t, req("grafana", pass[1:]), http.StatusUnauthorized)
}

func TestURLTokenSourceAndRotation(t *testing.T) {
	name := "spl-" + randomSuffix()
	token := registerTokenSource(t, map[string]any{"source": name, "format": "splunk", "auth_mode": "url_token"})
	view := call(t, http.MethodGet, "/api/webhooks/"+name, env.adminKey, nil).data()
	if view["intake_path"] != "/api/webhooks/"+name+"/{token}" {
		t.Fatalf("intake path: %v", view["intake_path"])
	}
	delivery := func(sid string) string {
		return strings.Replace(fixture(t, "splunk_webhook.json"), "scheduler_admin_search_W2_at_14232356_132", sid, -1)
	}
	r := post(t, "/api/webhooks/"+name+"/"+token, delivery("sid-"+randomSuffix()), nil)
	expectStatus(t, r, http.StatusCreated)
	expectStatus(t, post(t, "/api/webhooks/"+name, delivery("sid-"+randomSuffix()), map[string]string{"Authorization": "Bearer " + token}), http.StatusUnauthorized)
	expectStatus(t, post(t, "/api/webhooks/"+name+"/not-the-token", delivery("sid-"+randomSuffix()), nil), http.StatusUnauthorized)

	// Re-registering in the same mode keeps the token.
	again := call(t, http.MethodPost, "/api/webhooks", keyFor(t, store.RoleManager),
		map[string]any{"source": name, "format": "splunk", "auth_mode": "url_token", "auto_triage": true})
	expectStatus(t, again, http.StatusOK)
	if _, shown := again.data()["token"]; shown {
		t.Fatalf("re-registration issued a token: %s", again.Raw)
	}
	// A rotation keeps the old token valid for its grace period...
	rot := call(t, http.MethodPost, "/api/webhooks/"+name+"/rotate-token", keyFor(t, store.RoleManager), nil)
	expectStatus(t, rot, http.StatusOK)
	fresh := rot.data()["token"].(string)
	if fresh == token || rot.data()["previous_token_valid_until"] == nil {
		t.Fatalf("rotation: %s", rot.Raw)
	}
	expectStatus(t, post(t, "/api/webhooks/"+name+"/"+token, delivery("sid-"+randomSuffix()), nil), http.StatusCreated)
	expectStatus(t, post(t, "/api/webhooks/"+name+"/"+fresh, delivery("sid-"+randomSuffix()), nil), http.StatusCreated)
	// ...and one without grace ends it at once.
	rot = call(t, http.MethodPost, "/api/webhooks/"+name+"/rotate-token", keyFor(t, store.RoleManager), map[string]any{"grace_seconds": 0})
	expectStatus(t, rot, http.StatusOK)
	latest := rot.data()["token"].(string)
	expectStatus(t, post(t, "/api/webhooks/"+name+"/"+fresh, delivery("sid-"+randomSuffix()), nil), http.StatusUnauthorized)
	expectStatus(t, post(t, "/api/webhooks/"+name+"/"+latest, delivery("sid-"+randomSuffix()), nil), http.StatusCreated)
	// A signed source has a secret to rotate, not a token.
	signed := "sig-" + randomSuffix()
	registerSource(t, signed, nil)
	expectStatus(t, call(t, http.MethodPost, "/api/webhooks/"+signed+"/rotate-token", keyFor(t, store.RoleManager), nil), http.StatusUnprocessableEntity)
}

func TestCustomSourcePreview(t *testing.T) {
	name := "cus-" + randomSuffix()
	mapping := map[string]any{"title": `payload.check + " on " + payload.host`, "severity": "payload.level",
		"alert_id": "payload.id", "resolved": `payload.state == "ok"`}
	registerTokenSource(t, map[string]any{"source": name, "format": "custom", "auth_mode": "bearer",
		"mapping": mapping, "severity_mapping": map[string]any{"p1": "critical"}})
	mgr := keyFor(t, store.RoleManager)
	sample := map[string]any{"check": "disk", "host": "web-3", "level": "P1", "id": "c-1", "state": "alerting"}
	r := call(t, http.MethodPost, "/api/webhooks/"+name+"/preview", mgr, map[string]any{"payload": sample})
	expectStatus(t, r, http.StatusOK)
	inc := r.data()["incidents"].([]any)[0].(map[string]any)
	if inc["title"] != "disk on web-3" || inc["severity"] != "critical" || inc["alert_id"] != "c-1" || inc["action"] != "create" {
		t.Fatalf("preview: %s", r.Raw)
	}
	sample["state"] = "ok"
	r = call(t, http.MethodPost, "/api/webhooks/"+name+"/preview", mgr, map[string]any{"payload": sample,
		"mapping": map[string]any{"title": "payload.host", "resolved": `payload.state == "ok"`}})
	expectStatus(t, r, http.StatusOK)
	if inc := r.data()["incidents"].([]any)[0].(map[string]any); inc["title"] != "web-3" || inc["action"] != "resolve" {
		t.Fatalf("preview with a draft mapping: %s", r.Raw)
	}
	r = call(t, http.MethodPost, "/api/webhooks/"+name+"/preview", mgr, map[string]any{"payload": sample, "mapping": map[string]any{"title": "payload.("}})
	expectStatus(t, r, http.StatusUnprocessableEntity)
	r = call(t, http.MethodPost, "/api/webhooks/"+name+"/preview", mgr, map[string]any{"payload": map[string]any{"other": 1}})
	expectStatus(t, r, http.StatusUnprocessableEntity)
	if !strings.Contains(string(r.Raw), "mapping title") {
		t.Fatalf("unreadable sample: %s", r.Raw)
	}
	expectStatus(t, call(t, http.MethodPost, "/api/webhooks/"+name+"/preview", keyFor(t, store.RoleAnalyst), map[string]any{"payload": sample}), http.StatusForbidden)
}

func TestGroupedResolutionUpdatesItsIncident(t *testing.T) {
	name := "graf-" + randomSuffix()
	token := registerTokenSource(t, map[string]any{"source": name, "format": "grafana", "auth_mode": "bearer", "resolve_incidents": true})
	auth := map[string]string{"Authorization": "Bearer " + token}
	fp := "fp-" + randomSuffix()
	body := strings.ReplaceAll(fixture(t, "grafana_webhook.json"), "c6eadffa33fcdf37", fp)
	first := post(t, "/api/webhooks/"+name, body, auth)
	expectStatus(t, first, http.StatusCreated)
	id := first.Body["incident_id"].(string)
	resolved := strings.Replace(body, `"status": "firing",
      "labels": {"alertname": "High memory usage"`, `"status": "resolved",
      "labels": {"alertname": "High memory usage"`, 1)
	resolved = strings.Replace(resolved, `"endsAt": "0001-01-01T00:00:00Z",
      "generatorURL": "https://play.grafana.org/alerting/1afz29v7z/edit"`, `"endsAt": "2021-10-12T10:30:00Z",
      "generatorURL": "https://play.grafana.org/alerting/1afz29v7z/edit"`, 1)
	r := post(t, "/api/webhooks/"+name, resolved, auth)
	expectStatus(t, r, http.StatusOK)
	outcomes := r.Body["alerts"].([]any)
	if o := outcomes[0].(map[string]any); o["outcome"] != "resolved" || o["incident_id"] != id {
		t.Fatalf("resolution: %s", r.Raw)
	}
	if o := outcomes[1].(map[string]any); o["outcome"] != "deduplicated" {
		t.Fatalf("the still-firing alert: %s", r.Raw)
	}
	inc := call(t, http.MethodGet, "/api/incidents/"+id, env.adminKey, nil).data()
	if inc["status"] != "resolved" || !strings.Contains(inc["resolution"].(string), "2021-10-12T10:30:00Z") {
		t.Fatalf("incident after its alert resolved: %v %v", inc["status"], inc["resolution"])
	}
	// The notice again changes nothing and is not noted twice.
	expectStatus(t, post(t, "/api/webhooks/"+name, resolved, auth), http.StatusOK)
	timeline := call(t, http.MethodGet, "/api/incidents/"+id+"/timeline", env.adminKey, nil)
	if n := strings.Count(string(timeline.Raw), `"incident.alert_resolved"`); n != 1 {
		t.Fatalf("%d resolution entries on the timeline: %s", n, timeline.Raw)
	}
}

// A delivery of resolutions alone answers with the SPEC's incident_id and
// incident_number: its alert's incident, or null when it never made one.
func TestResolutionOnlyDeliveryAnswer(t *testing.T) {
	name := "res-" + randomSuffix()
	token := registerTokenSource(t, map[string]any{"source": name, "format": "custom", "auth_mode": "bearer",
		"mapping": map[string]any{"title": "payload.host", "alert_id": "payload.id", "resolved": `payload.state == "ok"`}})
	auth := map[string]string{"Authorization": "Bearer " + token}
	id := "c-" + randomSuffix()
	delivery := func(state string) string {
		return `{"host":"web-3","id":"` + id + `","state":"` + state + `"}`
	}
	outcome := func(r response) string { return r.Body["alerts"].([]any)[0].(map[string]any)["outcome"].(string) }

	r := post(t, "/api/webhooks/"+name, delivery("ok"), auth)
	expectStatus(t, r, http.StatusOK)
	if v, present := r.Body["incident_id"]; !present || v != nil || outcome(r) != "unmatched" {
		t.Fatalf("resolution of an alert without an incident: %s", r.Raw)
	}
	if v, present := r.Body["incident_number"]; !present || v != nil {
		t.Fatalf("resolution of an alert without an incident: %s", r.Raw)
	}

	firing := post(t, "/api/webhooks/"+name, delivery("alerting"), auth)
	expectStatus(t, firing, http.StatusCreated)
	r = post(t, "/api/webhooks/"+name, delivery("ok"), auth)
	expectStatus(t, r, http.StatusOK)
	if r.Body["incident_id"] != firing.Body["incident_id"] || r.Body["incident_number"] != firing.Body["incident_number"] || outcome(r) != "resolved" {
		t.Fatalf("resolution of %v: %s", firing.Body["incident_id"], r.Raw)
	}
}

// A signed source takes its deliveries on its plain path only: the token
// routes refuse a delivery to it however well it is signed, before the
// body is read, so the same delivery is still accepted where it belongs.
func TestSignedSourceRefusesTokenRoute(t *testing.T) {
	name := "sig-" + randomSuffix()
	secret := registerSource(t, name, nil)
	body := strings.Replace(edrAlert, "%s", randomSuffix(), 1)
	ts := time.Now().Unix()
	headers := map[string]string{
		"X-Webhook-Signature": intake.Sign(secret, ts, []byte(body)),
		"X-Webhook-Timestamp": strconv.FormatInt(ts, 10),
	}
	for _, prefix := range []string{"/api/webhooks/", "/api/v1/webhooks/"} {
		r := post(t, prefix+name+"/tok-"+randomSuffix()+randomSuffix(), body, headers)
		if r.Status != http.StatusUnauthorized || r.errCode() != api.CodeInvalidToken {
			t.Fatalf("%s: a signed source's delivery on the token route: %d %s", prefix, r.Status, r.Raw)
		}
	}
	expectStatus(t, post(t, "/api/webhooks/"+name, body, headers), http.StatusCreated)
}
