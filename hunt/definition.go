package hunt

import "github.com/vigil-soc/vigil/store"

// Definition is a hunt as the hunt API and content packages take it,
// all but its name: one shape, one set of defaults, one set of checks.
type Definition struct {
	Hypothesis      string             `json:"hypothesis"`
	HuntType        string             `json:"hunt_type"`
	Status          string             `json:"status"`
	Queries         []store.HuntQuery  `json:"queries"`
	Schedule        store.HuntSchedule `json:"schedule"`
	Trigger         store.HuntTrigger  `json:"trigger"`
	MitreTechniques []string           `json:"mitre_techniques"`
	DataSources     []string           `json:"data_sources"`
	Tags            []string           `json:"tags"`
	Enabled         *bool              `json:"enabled,omitempty"`
	FailHuntOnError bool               `json:"fail_hunt_on_error"`
}

// DefinitionOf is the definition of the stored hunt h, as the hunt API
// shows it and content packages export it.
func DefinitionOf(h *store.Hunt) Definition {
	enabled := h.Enabled
	d := Definition{Hypothesis: h.Hypothesis, HuntType: h.HuntType, Status: h.Status, Queries: h.Queries.V,
		Schedule: h.Schedule.V, Trigger: h.TriggerSpec.V, MitreTechniques: h.MitreTechniques.V, DataSources: h.DataSources.V,
		Tags: h.Tags.V, Enabled: &enabled, FailHuntOnError: h.FailHuntOnError}
	d.FillDefaults()
	return d
}

// FillDefaults fills what a definition may leave out: an on_demand draft,
// enabled, with empty lists rather than none.
func (d *Definition) FillDefaults() {
	if d.HuntType == "" {
		d.HuntType = "on_demand"
	}
	if d.Status == "" {
		d.Status = "draft"
	}
	if d.Enabled == nil {
		on := true
		d.Enabled = &on
	}
	for _, p := range []*[]string{&d.MitreTechniques, &d.DataSources, &d.Tags} {
		if *p == nil {
			*p = []string{}
		}
	}
}

// Problems checks the definition's type, status and schedule, naming each
// bad field by its JSON path; call FillDefaults first.
func (d *Definition) Problems() []FieldError {
	var ps []FieldError
	add := func(field string, err error) {
		if err != nil {
			ps = append(ps, FieldError{Field: field, Message: err.Error()})
		}
	}
	add("hunt_type", CheckEnum(d.HuntType, HuntTypes))
	add("status", CheckEnum(d.Status, HuntStatuses))
	if d.HuntType == "scheduled" || d.Schedule.CronExpression != "" {
		add("schedule.cron_expression", ValidateCron(d.Schedule.CronExpression))
	}
	add("schedule.timezone", ValidateTimezone(d.Schedule.Timezone))
	if d.Schedule.MaxRuntimeSecs < 0 {
		ps = append(ps, FieldError{Field: "schedule.max_runtime_secs", Message: "must not be negative"})
	}
	return ps
}
