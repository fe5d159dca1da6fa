package intake

import "strings"

// ElasticTemplate is the body to paste into a Kibana webhook connector's
// action (Stack Management, Rules, the rule's action, "Body"). Kibana fills
// the mustache variables, escaped for JSON strings, when the rule runs; run
// the action "On status changes" with a second action for the Recovered
// group, so that the recovery resolves the incident. severity is for the
// rule author to fill in (or, for Elastic Security rules,
// {{context.rule.severity}}).
const ElasticTemplate = `{
  "rule": {"id": "{{rule.id}}", "name": "{{rule.name}}", "url": "{{rule.url}}", "tags": "{{rule.tags}}", "space_id": "{{rule.spaceId}}"},
  "alert": {"id": "{{alert.id}}", "uuid": "{{alert.uuid}}", "action_group": "{{alert.actionGroup}}", "action_group_name": "{{alert.actionGroupName}}"},
  "severity": "high",
  "reason": "{{context.reason}}",
  "date": "{{date}}"
}`

// WatcherTemplate is the body of an Elasticsearch Watcher webhook action
// in the same shape; a watch has no recovery, so every run is firing and
// repeated runs of one watch join its incident within the dedup window.
const WatcherTemplate = `{
  "rule": {"id": "{{ctx.watch_id}}", "name": "{{ctx.watch_id}}"},
  "alert": {"id": "{{ctx.watch_id}}", "action_group": "firing"},
  "severity": "high",
  "reason": "{{ctx.payload.hits.total}} documents matched",
  "date": "{{ctx.execution_time}}"
}`

const elasticExpected = "elastic: {rule{id, name, url?, tags?}, alert{id?, action_group?}, severity?, reason?, date?} (see the published Kibana and Watcher body templates)"

// elasticFormat is the shape of ElasticTemplate and WatcherTemplate.
var elasticFormat = format{name: SourceElastic, label: "elastic payload", expected: elasticExpected, parse: parseElastic}

// recoveredGroup is Kibana's action group for an alert that has recovered.
const recoveredGroup = "recovered"

// parseElastic reads the published template's shape. The alert is named
// by its rule and, for rules that alert per group (host, user), the alert
// id, so each group gets its own incident and its own recovery.
func parseElastic(r reader) (Alert, any, error) {
	var a Alert
	rule, err := r.object("rule", true)
	if err != nil {
		return a, nil, err
	}
	ruleID, err := rule.nonEmpty("id")
	if err != nil {
		return a, nil, err
	}
	name, err := rule.nonEmpty("name")
	if err != nil {
		return a, nil, err
	}
	alert, err := r.object("alert", false)
	if err != nil {
		return a, nil, err
	}
	alertID, err := alert.str("id", false)
	if err != nil {
		return a, nil, err
	}
	group, err := alert.str("action_group", false)
	if err != nil {
		return a, nil, err
	}
	sev, err := r.scalar("severity", false)
	if err != nil {
		return a, nil, err
	}
	if v, ok := r.get("date"); ok {
		a.OccurredAt, _ = anyTime(v)
	}
	a.Resolved = strings.EqualFold(strings.TrimSpace(group), recoveredGroup)
	a.EndNotified = true
	a.AlertID = strings.TrimSpace(ruleID)
	alertID = strings.TrimSpace(alertID)
	a.Title = cleanLine(name)
	if alertID != "" && alertID != a.AlertID {
		a.AlertID += "/" + alertID
		a.Title += ": " + cleanLine(alertID)
	}
	a.IncidentType = classify(name, genericTypeRules)
	a.Description = joinNonEmpty("\n", r.text("reason"), prefixed("Tags: ", rule.text("tags")), linkLine("Rule", rule.text("url")))
	return a, sev, nil
}
