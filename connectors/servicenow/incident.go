package servicenow

import (
	"context"
	"fmt"
	"net/url"
	"strings"

	"github.com/vigil-soc/vigil/connectors"
	"github.com/vigil-soc/vigil/connectors/vendorhttp"
)

// impactUrgency maps Vigil's priorities to impact and urgency; the
// instance's priority lookup rules derive the incident priority from them
// (default rules, impact/urgency: 1/1 is 1 - Critical, 2/1 2 - High, 2/2
// 3 - Moderate, 3/2 4 - Low).
var impactUrgency = map[string][2]string{
	"critical": {"1", "1"},
	"high":     {"2", "1"},
	"medium":   {"2", "2"},
	"low":      {"3", "2"},
}

// incident is the part of an incident row Vigil reads back.
type incident struct {
	SysID     string `json:"sys_id"`
	Number    string `json:"number"`
	Priority  string `json:"priority"`
	CreatedOn string `json:"sys_created_on"`
}

const incidentFields = "sys_id,number,priority,sys_created_on"

// CreateTicket files t as an incident, or returns the incident an earlier
// call with the same key filed.
func (c *Connector) CreateTicket(ctx context.Context, key string, t connectors.Ticket) (connectors.Result, error) {
	if strings.TrimSpace(t.Title) == "" {
		return connectors.Result{}, connectors.Permanentf("servicenow: a ticket needs a title")
	}
	// correlation_id holds 100 characters; ^ and = would change the query.
	if key == "" || len(key) > 100 || strings.ContainsAny(key, "^=") {
		return connectors.Result{}, connectors.Permanentf("servicenow: action id %q cannot be a correlation id", key)
	}
	if t.Priority == "" {
		t.Priority = "medium"
	}
	iu, ok := impactUrgency[t.Priority]
	if !ok {
		return connectors.Result{}, connectors.Permanentf("servicenow: unknown priority %q", t.Priority)
	}
	existing, err := c.findByCorrelation(ctx, key)
	if err != nil {
		return connectors.Result{}, err
	}
	if existing != nil {
		return c.result(*existing, t.Priority, "already filed"), nil
	}
	row := map[string]string{
		"short_description":   shortDescription(t.Title),
		"description":         t.Description,
		"impact":              iu[0],
		"urgency":             iu[1],
		"correlation_id":      key,
		"correlation_display": "Vigil",
	}
	if c.assignmentGroup != "" {
		row["assignment_group"] = c.assignmentGroup
	}
	if c.category != "" {
		row["category"] = c.category
	}
	var created struct {
		Result incident `json:"result"`
	}
	_, err = c.api.Do(ctx, vendorhttp.Request{Method: "POST", Path: c.tablePath(), Body: row,
		Query: url.Values{"sysparm_fields": {incidentFields}, "sysparm_exclude_reference_link": {"true"}}, Out: &created})
	if err != nil {
		return connectors.Result{}, fmt.Errorf("create incident: %w", err)
	}
	if created.Result.SysID == "" {
		return connectors.Result{}, fmt.Errorf("create incident: ServiceNow answered without a sys_id")
	}
	return c.result(created.Result, t.Priority, "created"), nil
}

// findByCorrelation returns the incident whose correlation_id is key.
func (c *Connector) findByCorrelation(ctx context.Context, key string) (*incident, error) {
	var page struct {
		Result []incident `json:"result"`
	}
	_, err := c.api.Do(ctx, vendorhttp.Request{Method: "GET", Path: c.tablePath(), Query: url.Values{
		"sysparm_query": {"correlation_id=" + key}, "sysparm_limit": {"1"}, "sysparm_fields": {incidentFields}},
		Out: &page})
	if err != nil {
		return nil, fmt.Errorf("look for an incident filed earlier: %w", err)
	}
	if len(page.Result) == 0 {
		return nil, nil
	}
	return &page.Result[0], nil
}

func (c *Connector) result(in incident, priority, verb string) connectors.Result {
	return connectors.Result{Success: true, Message: "ServiceNow incident " + in.Number + " " + verb, Output: map[string]any{
		"ticket_id": in.Number, "sys_id": in.SysID, "priority": priority, "servicenow_priority": in.Priority,
		"url": c.instance + "/" + c.table + ".do?sys_id=" + url.QueryEscape(in.SysID), "created_at": in.CreatedOn,
	}}
}

// shortDescription fits a title into the one-line, 160-character field.
func shortDescription(title string) string {
	s := strings.Join(strings.Fields(title), " ")
	if r := []rune(s); len(r) > 160 {
		s = string(r[:159]) + "…"
	}
	return s
}
