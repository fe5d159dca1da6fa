package intake

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"time"

	"github.com/vigil-soc/vigil/settings"
	"github.com/vigil-soc/vigil/store"
)

// This file reads deliveries as their stored webhook source says, and
// describes what their alerts do to the store.

// CompileSourceMapping compiles a custom source's mapping; other sources have
// none (nil).
func CompileSourceMapping(src *store.WebhookSource) (*Mapping, error) {
	if src == nil || src.Format != SourceCustom {
		return nil, nil
	}
	m, problems := CompileMapping(StoredMappingSpec(src.Mapping.V))
	if len(problems) > 0 {
		return nil, errors.New("mapping " + problems[0].Field + ": " + problems[0].Error())
	}
	return m, nil
}

// StoredMappingSpec reads a stored mapping.
func StoredMappingSpec(m map[string]string) MappingSpec {
	return MappingSpec{Title: m["title"], Severity: m["severity"], AlertID: m["alert_id"],
		Description: m["description"], Resolved: m["resolved"]}
}

// ParseSourceDelivery turns a delivery to source into its alerts, read as the
// source's format says; src may be nil (a source removed since), which
// reads as the default format. mapping is the source's compiled mapping.
func ParseSourceDelivery(source string, src *store.WebhookSource, mapping *Mapping, body []byte) ([]Alert, error) {
	d := Delivery{Source: source, Simple: source == GenericSource, Mapping: mapping}
	if src != nil {
		d.Format, d.SeverityMapping = src.Format, src.SeverityMapping.V
	}
	return ParseDelivery(body, d)
}

// AlertResolution describes what a resolved alert does to its incident.
func AlertResolution(a Alert, source string, setResolved bool) store.AlertResolution {
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

// DedupWindow reads the deduplication window from the general setting,
// cached for settings.GeneralCacheTTL since every alert asks.
func DedupWindow(ctx context.Context, svc *settings.Service) time.Duration {
	if svc == nil {
		return 10 * time.Minute
	}
	g, err := svc.CachedGeneral(ctx)
	if err != nil {
		return 10 * time.Minute
	}
	return time.Duration(g.DedupWindowMinutes) * time.Minute
}

// GenericSource is the source name of POST /api/webhooks/generic; its
// registered secret signs generic alerts.
const GenericSource = "generic"

// AlertToIncident describes the incident an alert becomes.
func AlertToIncident(a Alert, source string, window time.Duration, intakeID string, automate bool, playbookName string) store.AlertIncident {
	return store.AlertIncident{
		NewIncident: store.NewIncident{
			Title: a.Title, IncidentType: a.IncidentType, Source: a.Source, Severity: a.Severity,
			Description: a.Description, RawData: a.RawData, CreatedBy: "webhook:" + source,
		},
		ExternalSource: source, ExternalID: a.AlertID, DedupWindow: window, JoinUnresolved: a.EndNotified,
		IntakeID: intakeID, QueueTriage: automate, QueuePlaybook: playbookName,
	}
}
