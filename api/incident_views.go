package api

import (
	"time"

	"github.com/vigil-soc/vigil/store"
)

// incidentSummary is an incident as it appears in lists.
type incidentSummary struct {
	ID             string     `json:"id"`
	IncidentNumber string     `json:"incident_number"`
	Title          string     `json:"title,omitempty"`
	IncidentType   string     `json:"incident_type"`
	Severity       string     `json:"severity"`
	Status         string     `json:"status"`
	Source         string     `json:"source"`
	CreatedAt      time.Time  `json:"created_at"`
	UpdatedAt      time.Time  `json:"updated_at"`
	TriagedAt      *time.Time `json:"triaged_at,omitempty"`
}

// incidentDetail is a single incident with everything it carries.
type incidentDetail struct {
	incidentSummary
	Description        string         `json:"description"`
	Assignee           string         `json:"assignee"`
	RawData            map[string]any `json:"raw_data"`
	Verdict            *store.Verdict `json:"verdict,omitempty"`
	RecommendedActions []string       `json:"recommended_actions"`
	Resolution         string         `json:"resolution"`
}

func summaryOf(inc *store.Incident) incidentSummary {
	return incidentSummary{
		ID:             inc.ID,
		IncidentNumber: inc.IncidentNumber,
		Title:          inc.Title,
		IncidentType:   inc.IncidentType,
		Severity:       inc.Severity,
		Status:         inc.Status,
		Source:         inc.Source,
		CreatedAt:      inc.CreatedAt.UTC(),
		UpdatedAt:      inc.UpdatedAt.UTC(),
		TriagedAt:      utcPtr(inc.TriagedAt),
	}
}

func detailOf(inc *store.Incident) incidentDetail {
	raw := inc.RawData.V
	if raw == nil {
		raw = map[string]any{}
	}
	actions := inc.RecommendedActions.V
	if actions == nil {
		actions = []string{}
	}
	return incidentDetail{
		incidentSummary:    summaryOf(inc),
		Description:        inc.Description,
		Assignee:           inc.Assignee,
		RawData:            raw,
		Verdict:            inc.Verdict.V,
		RecommendedActions: actions,
		Resolution:         inc.Resolution,
	}
}

func utcPtr(t *time.Time) *time.Time {
	if t == nil {
		return nil
	}
	u := t.UTC()
	return &u
}
