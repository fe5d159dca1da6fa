package api

import (
	"encoding/json"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/vigil-soc/vigil/intake"
)

type previewRequest struct {
	// Payload is a sample delivery body, as the sender would post it.
	Payload json.RawMessage `json:"payload"`
	// Mapping, for a custom source, tries these expressions instead of
	// the saved ones, so a mapping can be checked before it is saved.
	Mapping *intake.MappingSpec `json:"mapping"`
}

// previewIncident is what one alert of a sample delivery would do.
type previewIncident struct {
	// Action is "create" (a new incident, or an occurrence of the one its
	// alert id has within the dedup window) or "resolve".
	Action       string         `json:"action"`
	Title        string         `json:"title"`
	Severity     string         `json:"severity"`
	SeverityRaw  string         `json:"severity_raw"`
	IncidentType string         `json:"incident_type"`
	Source       string         `json:"source"`
	AlertID      string         `json:"alert_id"`
	Description  string         `json:"description"`
	OccurredAt   *time.Time     `json:"occurred_at,omitempty"`
	RawData      map[string]any `json:"raw_data"`
}

type previewView struct {
	Source    string            `json:"source"`
	Format    string            `json:"format"`
	Incidents []previewIncident `json:"incidents"`
}

// previewWebhook shows the incidents a sample payload would produce for
// a source, without authenticating it as a delivery or storing anything.
func (s *server) previewWebhook(c *gin.Context) (reply, error) {
	var req previewRequest
	if err := decodeJSON(c, &req, false); err != nil {
		return reply{}, err
	}
	src, err := s.store.GetWebhookSource(c, c.Param("source"))
	if err != nil {
		return reply{}, orNotFound(err, "webhook source")
	}
	if len(req.Payload) == 0 || string(req.Payload) == "null" {
		return reply{}, validationError(map[string]string{"payload": "is required: the JSON body a sender would post"})
	}
	var mapping *intake.Mapping
	if req.Mapping != nil {
		bad := map[string]string{}
		checkMapping(bad, src.Format, req.Mapping)
		if len(bad) > 0 {
			return reply{}, validationError(bad)
		}
		mapping, _ = intake.CompileMapping(*req.Mapping)
	} else if mapping, err = intake.CompileSourceMapping(src); err != nil {
		return reply{}, validationError(map[string]string{"mapping": err.Error()})
	}
	alerts, err := intake.ParseSourceDelivery(src.Source, src, mapping, req.Payload)
	if err != nil {
		return reply{}, formatError(err)
	}
	view := previewView{Source: src.Source, Format: webhookView(src).Format, Incidents: make([]previewIncident, 0, len(alerts))}
	for _, a := range alerts {
		p := previewIncident{Action: "create", Title: a.Title, Severity: a.Severity, SeverityRaw: a.SeverityRaw,
			IncidentType: a.IncidentType, Source: a.Source, AlertID: a.AlertID, Description: a.Description, RawData: a.RawData}
		if a.Resolved {
			p.Action = "resolve"
		}
		if !a.OccurredAt.IsZero() {
			t := a.OccurredAt
			p.OccurredAt = &t
		}
		view.Incidents = append(view.Incidents, p)
	}
	return ok(view), nil
}
