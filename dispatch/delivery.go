package dispatch

import (
	"errors"
	"strconv"
	"strings"
	"time"

	"github.com/vigil-soc/vigil/intake"
	"github.com/vigil-soc/vigil/store"
)

// CompileMapping compiles a custom source's mapping; other sources have
// none (nil).
func CompileMapping(src *store.WebhookSource) (*intake.Mapping, error) {
	if src == nil || src.Format != intake.SourceCustom {
		return nil, nil
	}
	m, problems := intake.CompileMapping(MappingSpec(src.Mapping.V))
	if len(problems) > 0 {
		return nil, errors.New("mapping " + problems[0].Field + ": " + problems[0].Error())
	}
	return m, nil
}

// MappingSpec reads a stored mapping.
func MappingSpec(m map[string]string) intake.MappingSpec {
	return intake.MappingSpec{Title: m["title"], Severity: m["severity"], AlertID: m["alert_id"],
		Description: m["description"], Resolved: m["resolved"]}
}

// ParseDelivery turns a delivery to source into its alerts, read as the
// source's format says; src may be nil (a source removed since), which
// reads as the default format. mapping is the source's compiled mapping.
func ParseDelivery(source string, src *store.WebhookSource, mapping *intake.Mapping, body []byte) ([]intake.Alert, error) {
	d := intake.Delivery{Source: source, Simple: source == GenericSource, Mapping: mapping}
	if src != nil {
		d.Format, d.SeverityMapping = src.Format, src.SeverityMapping.V
	}
	return intake.ParseDelivery(body, d)
}

// AlertResolution describes what a resolved alert does to its incident.
func AlertResolution(a intake.Alert, source string, setResolved bool) store.AlertResolution {
	note := "Alert resolved at the sender"
	switch {
	case !a.EndedAt.IsZero():
		note += " at " + a.EndedAt.UTC().Format(time.RFC3339)
	case !a.OccurredAt.IsZero():
		note += " (notified " + a.OccurredAt.UTC().Format(time.RFC3339) + ")"
	}
	if t := strings.TrimSpace(a.Title); t != "" {
		note += ": " + t
	}
	return store.AlertResolution{ExternalSource: source, ExternalID: a.AlertID, Note: note + ".", SetResolved: setResolved}
}

// AlertIntakeID names the incident of the i-th alert of a queued delivery,
// so a retried dispatch finds each instead of creating it again. The first
// keeps the entry's own id, as deliveries of one alert always have.
func AlertIntakeID(entryID string, i int) string {
	if i == 0 {
		return entryID
	}
	return entryID + "/" + strconv.Itoa(i)
}
