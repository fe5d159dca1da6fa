package intake

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"maps"
	"slices"
	"strings"
)

// Shapes of the grouped formats, for FormatError.Expected.
const (
	alertmanagerExpected = `alertmanager: {version: "4", status, receiver, groupLabels, commonLabels, externalURL, alerts[{status: firing|resolved, labels{alertname, severity?}, annotations{summary?, description?}, startsAt, endsAt, generatorURL, fingerprint}]}`
	grafanaExpected      = `grafana: {receiver, status, orgId, alerts[{status: firing|resolved, labels{alertname, severity?}, annotations{summary?, description?}, startsAt, fingerprint, dashboardURL?, panelURL?, silenceURL?}]}`
)

// groupKind tells the two grouped formats apart where they differ.
type groupKind struct {
	name, label, expected, fallbackTitle string
	// version is the payload version the format requires; "" accepts any.
	version string
}

var (
	alertmanagerKind = groupKind{name: SourceAlertmanager, label: "alertmanager payload", expected: alertmanagerExpected,
		fallbackTitle: "Alertmanager alert", version: "4"}
	grafanaKind = groupKind{name: SourceGrafana, label: "grafana payload", expected: grafanaExpected,
		fallbackTitle: "Grafana alert"}
)

// parseGroup reads an Alertmanager or Grafana notification: one alert per
// entry of "alerts", keyed by its fingerprint. Each alert's raw data is the
// notification with that alert alone in "alerts", so it keeps the group's
// context (receiver, group labels, external URL) in the sender's shape.
func parseGroup(body []byte, d Delivery) ([]Alert, error) {
	kind := alertmanagerKind
	if d.Format == SourceGrafana {
		kind = grafanaKind
	}
	expected := []string{kind.expected}
	m, err := decodeObject(body, expected)
	if err != nil {
		return nil, err
	}
	r := reader{label: kind.label, m: m, expect: expected}
	if kind.version != "" {
		if v := r.text("version"); v != kind.version {
			return nil, r.fail("version", fmt.Sprintf("must be %q (the webhook payload version this service reads), got %q", kind.version, v))
		}
	}
	list, ok := m["alerts"].([]any)
	if !ok {
		return nil, r.fail("alerts", "must be an array of alerts")
	}
	if len(list) == 0 {
		return nil, r.fail("alerts", "holds no alert")
	}
	if len(list) > maxAlertsPerDelivery {
		return nil, r.fail("alerts", fmt.Sprintf("holds %d alerts; at most %d are accepted in one delivery", len(list), maxAlertsPerDelivery))
	}
	out := make([]Alert, 0, len(list))
	for i, item := range list {
		am, ok := item.(map[string]any)
		if !ok {
			return nil, r.fail(fmt.Sprintf("alerts[%d]", i), "must be an object")
		}
		ar := reader{label: kind.label, path: fmt.Sprintf("alerts[%d].", i), m: am, expect: expected}
		a, sev, err := parseGroupedAlert(ar, kind)
		if err != nil {
			return nil, err
		}
		raw := make(map[string]any, len(m))
		for k, v := range m {
			raw[k] = v
		}
		raw["alerts"] = []any{am}
		out = append(out, finish(a, sev, raw, d.Source, d.SeverityMapping))
	}
	return out, nil
}

// parseGroupedAlert reads one entry of "alerts".
func parseGroupedAlert(r reader, kind groupKind) (Alert, any, error) {
	a := Alert{Format: kind.name, EndNotified: true}
	status, err := r.str("status", true)
	if err != nil {
		return a, nil, err
	}
	switch status {
	case "firing":
	case "resolved":
		a.Resolved = true
	default:
		return a, nil, r.fail("status", `must be "firing" or "resolved"`)
	}
	labels, err := r.object("labels", true)
	if err != nil {
		return a, nil, err
	}
	annotations, err := r.object("annotations", false)
	if err != nil {
		return a, nil, err
	}
	if _, err := r.str("fingerprint", false); err != nil {
		return a, nil, err
	}
	a.AlertID = strings.TrimSpace(r.text("fingerprint"))
	if a.AlertID == "" {
		// Alertmanager before 0.19 sent no fingerprint; the label set is
		// what identifies an alert there.
		a.AlertID = labelFingerprint(labels.m)
	}
	if v, ok := r.get("startsAt"); ok {
		a.OccurredAt, _ = anyTime(v)
	}
	if v, ok := r.get("endsAt"); ok && a.Resolved {
		// Firing alerts carry the zero time "0001-01-01T00:00:00Z" here.
		a.EndedAt, _ = anyTime(v)
	}

	name := labels.text("alertname")
	summary := annotations.text("summary")
	a.Title = joinNonEmpty(": ", cleanLine(name), cleanLine(summary))
	if cleanLine(a.Title) == "" {
		a.Title = kind.fallbackTitle
	}
	a.IncidentType = labels.text("incident_type")
	if normaliseType(a.IncidentType) == "" {
		a.IncidentType = classify(name+" "+summary, genericTypeRules)
	}
	a.Description = joinNonEmpty("\n",
		annotations.text("description"),
		labelLine(labels.m),
		linkLine("Source", r.text("generatorURL")),
		linkLine("Runbook", annotations.text("runbook_url")),
		linkLine("Dashboard", r.text("dashboardURL")),
		linkLine("Panel", r.text("panelURL")))
	sev := any(nil)
	for _, key := range []string{"severity", "priority"} {
		if s := labels.text(key); strings.TrimSpace(s) != "" {
			sev = s
			break
		}
	}
	return a, sev, nil
}

// labelFingerprint names an alert by its sorted label set.
func labelFingerprint(labels map[string]any) string {
	keys := slices.Sorted(maps.Keys(labels))
	h := sha256.New()
	for _, k := range keys {
		fmt.Fprintf(h, "%s\xff%v\xff", k, labels[k])
	}
	return hex.EncodeToString(h.Sum(nil))[:16]
}

// labelLine lists an alert's labels on one line, sorted, for the
// description; the alert name is already the title.
func labelLine(labels map[string]any) string {
	var parts []string
	for _, k := range slices.Sorted(maps.Keys(labels)) {
		if k == "alertname" {
			continue
		}
		if s, ok := labels[k].(string); ok {
			parts = append(parts, k+"="+cleanLine(s))
		}
	}
	if len(parts) == 0 {
		return ""
	}
	return "Labels: " + strings.Join(parts, ", ")
}

// linkLine labels a URL for the description, or is empty without one.
func linkLine(label, url string) string {
	if strings.TrimSpace(url) == "" {
		return ""
	}
	return label + ": " + cleanLine(url)
}
