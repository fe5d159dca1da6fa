package intake

import (
	"strings"
)

// Source formats: how a registered source's deliveries are read.
const (
	// SourceAuto detects one of the four signed formats (Parse).
	SourceAuto = "auto"
	// SourceAlertmanager reads Prometheus Alertmanager's webhook (version 4).
	SourceAlertmanager = "alertmanager"
	// SourceGrafana reads Grafana alerting's webhook contact point.
	SourceGrafana = "grafana"
	// SourceSplunk reads Splunk's stock webhook alert action.
	SourceSplunk = "splunk"
	// SourceElastic reads the body of ElasticTemplate (Kibana connector)
	// or WatcherTemplate (Watcher webhook action).
	SourceElastic = "elastic"
	// SourceCustom reads any JSON object through the source's Mapping.
	SourceCustom = "custom"
)

// SourceFormats lists every source format, the default first.
var SourceFormats = []string{SourceAuto, SourceAlertmanager, SourceGrafana, SourceSplunk, SourceElastic, SourceCustom}

// maxAlertsPerDelivery bounds the alerts one delivery may carry. Alertmanager
// and Grafana group alerts; a group of thousands is a misconfiguration, and
// each alert costs an incident write.
const maxAlertsPerDelivery = 500

// Delivery is how a source's deliveries are to be read.
type Delivery struct {
	Source          string            // the registered source name
	Format          string            // one of SourceFormats; "" means SourceAuto
	SeverityMapping map[string]string // the source's severity_mapping
	Simple          bool              // SourceAuto also accepts the simple {title, severity} shape
	Mapping         *Mapping          // compiled expressions, for SourceCustom
}

// ParseDelivery turns one delivery into its alerts: one for the signed
// formats, Splunk, Elastic and custom senders, one per alert of the group
// for Alertmanager and Grafana. Errors are always *FormatError.
func ParseDelivery(body []byte, d Delivery) ([]Alert, error) {
	switch d.Format {
	case "", SourceAuto:
		parse := Parse
		if d.Simple {
			parse = ParseSimple
		}
		a, err := parse(body, d.Source, d.SeverityMapping)
		if err != nil {
			return nil, err
		}
		return []Alert{a}, nil
	case SourceAlertmanager, SourceGrafana:
		return parseGroup(body, d)
	case SourceSplunk:
		return parseOne(body, d, splunkFormat)
	case SourceElastic:
		return parseOne(body, d, elasticFormat)
	case SourceCustom:
		if d.Mapping == nil {
			return nil, &FormatError{Message: "the source has no mapping"}
		}
		return parseCustom(body, d)
	}
	return nil, &FormatError{Message: "unknown source format " + d.Format, Expected: SourceFormats}
}

// parseOne reads a delivery that carries exactly one alert in format f.
func parseOne(body []byte, d Delivery, f format) ([]Alert, error) {
	expected := []string{f.expected}
	m, err := decodeObject(body, expected)
	if err != nil {
		return nil, err
	}
	a, sev, err := f.parse(reader{label: f.label, m: m, expect: expected})
	if err != nil {
		return nil, err
	}
	a.Format = f.name
	return []Alert{finish(a, sev, m, d.Source, d.SeverityMapping)}, nil
}

// joinNonEmpty joins the parts that are not blank.
func joinNonEmpty(sep string, parts ...string) string {
	var kept []string
	for _, p := range parts {
		if strings.TrimSpace(p) != "" {
			kept = append(kept, strings.TrimSpace(p))
		}
	}
	return strings.Join(kept, sep)
}
