package api

import (
	"errors"
	"net/http"

	"github.com/gin-gonic/gin"

	"github.com/vigil-soc/vigil/intake"
	"github.com/vigil-soc/vigil/store"
)

// What became of one alert of a delivery.
const (
	alertCreated      = "created"
	alertDeduplicated = "deduplicated"
	alertResolved     = "resolved"
	// alertUnmatched is a resolution for an alert that never made an
	// incident (it fired before the source was registered, say).
	alertUnmatched = "unmatched"
)

// admittedAlert reports one alert of a delivery.
type admittedAlert struct {
	AlertID        string `json:"alert_id,omitempty"`
	Outcome        string `json:"outcome"`
	IncidentID     string `json:"incident_id,omitempty"`
	IncidentNumber string `json:"incident_number,omitempty"`
	Occurrences    int    `json:"occurrences,omitempty"`
}

// admit commits the incidents of a delivery's firing alerts and applies
// its resolutions. A delivery of one firing alert is answered as the
// SPEC shows; a grouped or resolving one also lists every alert's outcome.
func (s *server) admit(c *gin.Context, src *store.WebhookSource, alerts []intake.Alert, replay *store.Replay) (reply, error) {
	source := src.Source
	window := intake.DedupWindow(c, s.settings)
	out := make([]admittedAlert, len(alerts))
	var (
		firing []store.AlertIncident
		at     []int
	)
	for i, a := range alerts {
		out[i].AlertID = a.AlertID
		if !a.Resolved {
			firing = append(firing, intake.AlertToIncident(a, source, window, "", src.AutoTriage, src.Playbook))
			at = append(at, i)
		}
	}
	if err := s.commitFiring(firing, at, replay, out); err != nil {
		return reply{}, s.webhookError(source, "replay", replayError(err))
	}
	for i, a := range alerts {
		if !a.Resolved {
			continue
		}
		inc, _, err := s.store.ResolveAlertIncident(c, intake.AlertResolution(a, source, src.ResolveIncidents))
		switch {
		case errors.Is(err, store.ErrNotFound):
			out[i].Outcome = alertUnmatched
		case err != nil:
			return reply{}, s.webhookError(source, "store", err)
		default:
			out[i].Outcome, out[i].IncidentID, out[i].IncidentNumber = alertResolved, inc.ID, inc.IncidentNumber
		}
	}
	s.wakeDispatcher()
	return admitted(out, len(alerts) == 1 && len(firing) == 1), nil
}

// commitFiring creates or joins the incidents of the firing alerts and
// fills their outcomes. The delivery's signature, when it has one, is
// recorded with the first alert, which is committed alone first when
// others follow: a replayed delivery must create nothing.
func (s *server) commitFiring(firing []store.AlertIncident, at []int, replay *store.Replay, out []admittedAlert) error {
	if len(firing) == 0 {
		return nil
	}
	firing[0].Replay = replay
	var results []store.AlertOutcome
	if replay != nil && len(firing) > 1 {
		results = s.createFromAlerts(firing[:1])
		if results[0].Err == nil {
			results = append(results, s.createFromAlerts(firing[1:])...)
		}
	} else {
		results = s.createFromAlerts(firing)
	}
	for k, r := range results {
		if r.Err != nil {
			return r.Err
		}
		o := &out[at[k]]
		o.Outcome, o.IncidentID, o.IncidentNumber, o.Occurrences = alertCreated, r.Incident.ID, r.Incident.IncidentNumber, r.Incident.Occurrences
		if r.Deduplicated {
			o.Outcome = alertDeduplicated
		}
	}
	return nil
}

// admitted words the answer: 201 when the delivery created an incident,
// 200 otherwise. The first alert with an incident stands for the delivery
// in incident_id and incident_number, which are null when none has one
// (a delivery of unmatched resolutions), so the answer always has the
// SPEC's shape.
func admitted(out []admittedAlert, single bool) reply {
	status := http.StatusOK
	body := gin.H{"status": "accepted", "incident_id": nil, "incident_number": nil}
	for _, o := range out {
		if o.Outcome == alertCreated {
			status = http.StatusCreated
		}
		if body["incident_id"] == nil && o.IncidentID != "" {
			body["incident_id"], body["incident_number"] = o.IncidentID, o.IncidentNumber
			body["deduplicated"], body["occurrences"] = o.Outcome == alertDeduplicated, o.Occurrences
		}
	}
	if !single {
		body["alerts"] = out
	}
	return reply{status: status, raw: true, body: body}
}
