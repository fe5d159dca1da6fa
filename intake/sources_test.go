package intake

import (
	"encoding/json"
	"errors"
	"regexp"
	"strings"
	"testing"
	"time"
)

// The Alertmanager fixture follows the webhook_config payload (version 4)
// documented at https://prometheus.io/docs/alerting/latest/configuration/#webhook_config,
// with one firing and one resolved alert.
func TestAlertmanagerDelivery(t *testing.T) {
	alerts, err := ParseDelivery(readSample(t, "alertmanager_webhook.json"), Delivery{Source: "prom",
		Format: SourceAlertmanager, SeverityMapping: map[string]string{"warning": "low"}})
	if err != nil {
		t.Fatal(err)
	}
	if len(alerts) != 2 {
		t.Fatalf("%d alerts, want 2", len(alerts))
	}
	for _, a := range alerts {
		checkAlert(t, a)
	}
	fire, done := alerts[0], alerts[1]
	if fire.AlertID != "1a30ba71cca2921f" || fire.Resolved || fire.Severity != "critical" ||
		fire.Title != "ProbeFailure: BlackBox Probe Failure: https://server.example.org" || fire.Source != "prom" {
		t.Errorf("firing alert: %+v", fire)
	}
	if !strings.Contains(fire.Description, "down for over 5m") || !strings.Contains(fire.Description, "severity=critical") {
		t.Errorf("description: %q", fire.Description)
	}
	if want := time.Date(2023, 2, 6, 13, 8, 45, 828000000, time.UTC); !fire.OccurredAt.Equal(want) {
		t.Errorf("occurred at %v, want %v", fire.OccurredAt, want)
	}
	if got := fire.RawData["alerts"].([]any); len(got) != 1 || got[0].(map[string]any)["fingerprint"] != "1a30ba71cca2921f" {
		t.Errorf("raw data of one alert carries %v", got)
	}
	if fire.RawData["receiver"] != "vigil" {
		t.Errorf("raw data lost the group context: %v", fire.RawData)
	}
	if !done.Resolved || done.AlertID != "9b2d0f3e4a5c6d7e" || done.Severity != "low" ||
		!done.EndedAt.Equal(time.Date(2023, 2, 6, 13, 0, 0, 0, time.UTC)) {
		t.Errorf("resolved alert: %+v", done)
	}
}

func TestAlertmanagerRefusals(t *testing.T) {
	cases := []struct{ name, body, want string }{
		{"other version", `{"version":"3","alerts":[]}`, `version must be "4"`},
		{"no alerts", `{"version":"4"}`, "alerts must be an array"},
		{"empty group", `{"version":"4","alerts":[]}`, "alerts holds no alert"},
		{"bad status", `{"version":"4","alerts":[{"status":"pending","labels":{}}]}`, `alerts[0].status must be "firing" or "resolved"`},
		{"no labels", `{"version":"4","alerts":[{"status":"firing"}]}`, "alerts[0].labels is required"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := ParseDelivery([]byte(c.body), Delivery{Source: "prom", Format: SourceAlertmanager})
			var fe *FormatError
			if !errors.As(err, &fe) || !strings.Contains(fe.Message, c.want) {
				t.Fatalf("error %v, want one mentioning %q", err, c.want)
			}
		})
	}
	// Before 0.19 alerts carried no fingerprint: the label set names them.
	body := `{"version":"4","alerts":[{"status":"firing","labels":{"alertname":"A","b":"c"}}]}`
	a1, err := ParseDelivery([]byte(body), Delivery{Source: "prom", Format: SourceAlertmanager})
	if err != nil {
		t.Fatal(err)
	}
	a2, _ := ParseDelivery([]byte(strings.Replace(body, `"c"`, `"d"`, 1)), Delivery{Source: "prom", Format: SourceAlertmanager})
	if a1[0].AlertID == "" || a1[0].AlertID == a2[0].AlertID {
		t.Errorf("label fingerprints %q and %q", a1[0].AlertID, a2[0].AlertID)
	}
}

// The Grafana fixture is the example body of
// https://grafana.com/docs/grafana/latest/alerting/configure-notifications/manage-contact-points/integrations/webhook-notifier/
func TestGrafanaDelivery(t *testing.T) {
	alerts, err := ParseDelivery(readSample(t, "grafana_webhook.json"), Delivery{Source: "grafana-prod", Format: SourceGrafana})
	if err != nil {
		t.Fatal(err)
	}
	if len(alerts) != 2 {
		t.Fatalf("%d alerts, want 2", len(alerts))
	}
	want := []struct{ id, title string }{
		{"c6eadffa33fcdf37", "High memory usage: This alert was triggered for zone us-1"},
		{"bc97ff14869b13e3", "High CPU usage: This alert was triggered for zone eu-1"},
	}
	for i, a := range alerts {
		checkAlert(t, a)
		if a.AlertID != want[i].id || a.Title != want[i].title || a.Resolved || a.Severity != "medium" || a.Format != SourceGrafana {
			t.Errorf("alert %d: %+v", i, a)
		}
		if !strings.Contains(a.Description, "Runbook: https://myrunbook.com/runbook/1234") {
			t.Errorf("alert %d description: %q", i, a.Description)
		}
	}
	if got := alerts[0].OccurredAt; !got.Equal(time.Date(2021, 10, 12, 7, 51, 3, 157076000, time.UTC)) {
		t.Errorf("occurred at %v", got)
	}
	resolved := strings.Replace(string(readSample(t, "grafana_webhook.json")), `"status": "firing",
      "labels": {"alertname": "High CPU usage"`, `"status": "resolved",
      "labels": {"alertname": "High CPU usage"`, 1)
	alerts, err = ParseDelivery([]byte(resolved), Delivery{Source: "grafana-prod", Format: SourceGrafana})
	if err != nil || alerts[0].Resolved || !alerts[1].Resolved {
		t.Fatalf("resolved entry: %v %+v", err, alerts)
	}
}

// The Splunk fixture is the example of
// https://help.splunk.com/splunk-enterprise/alert-and-respond/alerting-manual/10.0/configure-alert-actions/use-a-webhook-alert-action
// (an ad hoc search, so search_name is null).
func TestSplunkDelivery(t *testing.T) {
	alerts, err := ParseDelivery(readSample(t, "splunk_webhook.json"), Delivery{Source: "splunk", Format: SourceSplunk})
	if err != nil {
		t.Fatal(err)
	}
	a := alerts[0]
	checkAlert(t, a)
	if a.AlertID != "scheduler_admin_search_W2_at_14232356_132" || a.Title != "Splunk alert scheduler_admin_search_W2_at_14232356_132" {
		t.Errorf("alert: %+v", a)
	}
	for _, s := range []string{"Results: http://web.example.local:8000/app/search/@go?sid=", "Owner: admin, app: search"} {
		if !strings.Contains(a.Description, s) {
			t.Errorf("description %q lacks %q", a.Description, s)
		}
	}
	named := strings.Replace(string(readSample(t, "splunk_webhook.json")), `"search_name" : null`, `"search_name" : "Brute force logins"`, 1)
	named = strings.Replace(named, `"count" : "8"`, `"count" : "8", "host": "dc-01", "_cd": "12:345", "urgency": "high"`, 1)
	alerts, err = ParseDelivery([]byte(named), Delivery{Source: "splunk", Format: SourceSplunk})
	if err != nil {
		t.Fatal(err)
	}
	if a := alerts[0]; a.Title != "Brute force logins on dc-01" || a.IncidentType != "suspicious login" ||
		a.AlertID != "scheduler_admin_search_W2_at_14232356_132/12:345" || a.Severity != "high" {
		t.Errorf("named search: %+v", a)
	}
	_, err = ParseDelivery([]byte(`{"search_name":"x"}`), Delivery{Source: "splunk", Format: SourceSplunk})
	if err == nil || !strings.Contains(err.Error(), "splunk payload: sid is required") {
		t.Errorf("no sid: %v", err)
	}
}

// renderMustache fills {{name}} as Kibana fills a webhook connector's body:
// values escaped for JSON strings (see
// https://www.elastic.co/guide/en/kibana/current/rule-action-variables.html).
func renderMustache(t *testing.T, template string, vars map[string]string) []byte {
	t.Helper()
	re := regexp.MustCompile(`\{\{([a-zA-Z0-9_.]+)\}\}`)
	out := re.ReplaceAllStringFunc(template, func(m string) string {
		name := re.FindStringSubmatch(m)[1]
		v, ok := vars[name]
		if !ok {
			t.Fatalf("template uses %s, which the test does not set", name)
		}
		b, _ := json.Marshal(v)
		return string(b[1 : len(b)-1])
	})
	return []byte(out)
}

// Kibana's common rule action variables, with values in the shape the
// rule-action-variables page documents.
var kibanaVars = map[string]string{
	"rule.id": "6f2c1d10-8a2f-11ee-b9d1-0242ac120002", "rule.name": "Failed logins above threshold",
	"rule.url":  "https://kibana.example.org/app/management/insightsAndAlerting/triggersActions/rule/6f2c1d10",
	"rule.tags": "auth,prod", "rule.spaceId": "default",
	"alert.id": "dc-01", "alert.uuid": "b8a4c2e0-1f3d-4e5a-9c7b-2d1e0f9a8b7c",
	"alert.actionGroup": "threshold met", "alert.actionGroupName": "Threshold met",
	"context.reason": `Document count is 42 in the last 5m for host "dc-01".`, "date": "2026-11-22T20:00:00.000Z",
}

func TestElasticTemplate(t *testing.T) {
	alerts, err := ParseDelivery(renderMustache(t, ElasticTemplate, kibanaVars), Delivery{Source: "kibana", Format: SourceElastic})
	if err != nil {
		t.Fatal(err)
	}
	a := alerts[0]
	checkAlert(t, a)
	if a.Title != "Failed logins above threshold: dc-01" || a.AlertID != kibanaVars["rule.id"]+"/dc-01" ||
		a.Resolved || a.Severity != "high" || a.IncidentType != "suspicious login" {
		t.Errorf("alert: %+v", a)
	}
	if !strings.Contains(a.Description, `for host "dc-01"`) || !strings.Contains(a.Description, "Rule: https://kibana.example.org") {
		t.Errorf("description: %q", a.Description)
	}
	recovered := map[string]string{}
	for k, v := range kibanaVars {
		recovered[k] = v
	}
	recovered["alert.actionGroup"], recovered["alert.actionGroupName"] = "recovered", "Recovered"
	alerts, err = ParseDelivery(renderMustache(t, ElasticTemplate, recovered), Delivery{Source: "kibana", Format: SourceElastic})
	if err != nil || !alerts[0].Resolved || alerts[0].AlertID != a.AlertID {
		t.Fatalf("recovery: %v %+v", err, alerts)
	}

	// Watcher's execution context, as
	// https://www.elastic.co/guide/en/elasticsearch/reference/current/how-watcher-works.html describes it.
	watch := renderMustache(t, WatcherTemplate, map[string]string{"ctx.watch_id": "log_errors",
		"ctx.payload.hits.total": "17", "ctx.execution_time": "2026-11-22T20:00:10.123Z"})
	alerts, err = ParseDelivery(watch, Delivery{Source: "watcher", Format: SourceElastic})
	if err != nil {
		t.Fatal(err)
	}
	if a := alerts[0]; a.Title != "log_errors" || a.AlertID != "log_errors" || a.Resolved || !strings.Contains(a.Description, "17 documents") {
		t.Errorf("watch: %+v", a)
	}
}

func TestCustomMapping(t *testing.T) {
	spec := MappingSpec{
		Title:       `payload.check.name + " failed on " + payload.host`,
		Severity:    `payload.level`,
		AlertID:     `payload.check.id`,
		Description: `payload.output ?? ""`,
		Resolved:    `payload.state == "ok"`,
	}
	m, problems := CompileMapping(spec)
	if len(problems) > 0 {
		t.Fatalf("problems: %v", problems[0])
	}
	body := `{"check":{"name":"disk","id":"chk-7"},"host":"web-3","level":"CRITICAL","state":"alerting","output":"98% used"}`
	alerts, err := ParseDelivery([]byte(body), Delivery{Source: "nagios", Format: SourceCustom, Mapping: m})
	if err != nil {
		t.Fatal(err)
	}
	a := alerts[0]
	checkAlert(t, a)
	if a.Title != "disk failed on web-3" || a.Severity != "critical" || a.AlertID != "chk-7" || a.Description != "98% used" || a.Resolved {
		t.Errorf("alert: %+v", a)
	}
	alerts, err = ParseDelivery([]byte(strings.Replace(body, "alerting", "ok", 1)), Delivery{Source: "nagios", Format: SourceCustom, Mapping: m})
	if err != nil || !alerts[0].Resolved {
		t.Fatalf("resolution: %v %+v", err, alerts)
	}
	// A payload the expressions cannot read is refused, naming the field.
	_, err = ParseDelivery([]byte(`{"host":"x"}`), Delivery{Source: "nagios", Format: SourceCustom, Mapping: m})
	if err == nil || !strings.Contains(err.Error(), "mapping title:") {
		t.Errorf("unreadable payload: %v", err)
	}
}

func TestCustomMappingErrorsHavePositions(t *testing.T) {
	_, problems := CompileMapping(MappingSpec{
		Title:    `payload.a +`,
		Severity: "payload.level ==\n  ",
		Resolved: `"yes"`,
		AlertID:  `len(1..2000000)`,
	})
	got := map[string]*MappingFieldError{}
	for _, p := range problems {
		got[p.Field] = p
	}
	for _, f := range []string{"title", "severity", "resolved", "alert_id"} {
		p := got[f]
		if p == nil {
			t.Errorf("%s: no problem reported", f)
			continue
		}
		if p.Line < 1 || p.Column < 1 || !strings.Contains(p.Error(), "line") {
			t.Errorf("%s: %q has no position", f, p.Error())
		}
	}
	if got["resolved"] != nil && !strings.Contains(got["resolved"].Message, "bool") {
		t.Errorf("resolved: %q", got["resolved"].Message)
	}
	if _, problems := CompileMapping(MappingSpec{}); len(problems) != 1 || problems[0].Field != "title" {
		t.Errorf("empty mapping: %v", problems)
	}
}
