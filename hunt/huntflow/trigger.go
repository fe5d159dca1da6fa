package huntflow

import (
	"context"
	"slices"

	"go.temporal.io/sdk/client"

	"github.com/vigil-soc/vigil/store"
	"github.com/vigil-soc/vigil/triage"
	"github.com/vigil-soc/vigil/workflows"
)

// TriggerIncident is what a triggered hunt may match and use of a new
// incident: its type and severity select hunts; its indicators become the
// query parameters of the run (for example ip, user_name, host, domain).
type TriggerIncident struct {
	ID         string
	Type       string
	Severity   string
	Indicators map[string]any
}

// StartTriggeredHunts starts a run of every active triggered hunt whose
// trigger matches the incident: the one hook for incident_created events.
// The run ID is derived from the incident, so delivering the same event
// twice starts each hunt once. It returns the workflow IDs started.
func StartTriggeredHunts(ctx context.Context, c client.Client, st *store.Store, taskQueue string, inc TriggerIncident) ([]string, error) {
	hunts, _, err := st.ListHunts(ctx, store.HuntFilter{Status: "active", HuntType: "triggered"})
	if err != nil {
		return nil, err
	}
	var started []string
	for _, h := range hunts {
		tr := h.TriggerSpec.V
		if !h.Enabled || (len(tr.IncidentTypes) > 0 && !slices.Contains(tr.IncidentTypes, inc.Type)) ||
			(len(tr.Severities) > 0 && !slices.Contains(tr.Severities, inc.Severity)) {
			continue
		}
		runID := "incident-" + inc.ID
		wid := WorkflowID(h.ID, runID)
		start := workflows.Start{ID: wid, Summary: "hunt " + h.Name, Queue: taskQueue}
		if err := start.Run(ctx, c, Run, Input{HuntID: h.ID, RunID: runID, Trigger: "triggered", Params: inc.Indicators}); err != nil {
			return started, err
		}
		started = append(started, wid)
	}
	return started, nil
}

// IncidentTrigger describes a new incident for StartTriggeredHunts: its
// type and severity, and the first indicator of each kind in its raw data
// as the query parameters ip, domain, url, hash and email.
func IncidentTrigger(inc *store.Incident) TriggerIncident {
	ind := triage.ExtractIndicators(inc.RawData.V)
	params := map[string]any{"incident_id": inc.ID, "incident_number": inc.IncidentNumber}
	first := func(name string, values []string) {
		if len(values) > 0 {
			params[name] = values[0]
		}
	}
	first("ip", ind.IPs)
	first("domain", ind.Domains)
	first("url", ind.URLs)
	first("hash", ind.Hashes)
	first("email", ind.Emails)
	return TriggerIncident{ID: inc.ID, Type: inc.IncidentType, Severity: inc.Severity, Indicators: params}
}
