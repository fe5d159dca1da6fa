package intake

import (
	"strings"
	"time"
)

// Each parser returns the alert with raw, uncleaned text plus the upstream
// severity value (string, float64 or nil); finish does the cleaning and
// mapping that every format shares. Fields in the documented shape are
// type-checked and their errors name the field; vendor extras outside it are
// read leniently with reader.text, since their types are not ours to police.

// parseGeneric reads {event_type, timestamp, source, data{alert_id,
// severity, details}}. source, alert_id and details are optional.
func parseGeneric(r reader) (Alert, any, error) {
	var a Alert
	eventType, err := r.nonEmpty("event_type")
	if err != nil {
		return a, nil, err
	}
	if a.OccurredAt, err = r.unixOrRFC3339("timestamp"); err != nil {
		return a, nil, err
	}
	if a.Source, err = r.str("source", false); err != nil {
		return a, nil, err
	}
	data, err := r.object("data", true)
	if err != nil {
		return a, nil, err
	}
	sev, err := data.scalar("severity", true)
	if err != nil {
		return a, nil, err
	}
	if _, err = data.scalar("alert_id", false); err != nil {
		return a, nil, err
	}
	a.AlertID = data.text("alert_id")
	details, err := data.object("details", false)
	if err != nil {
		return a, nil, err
	}

	a.Title = details.text("title")
	if cleanLine(a.Title) == "" {
		a.Title = humanize(eventType)
	}
	a.Description = details.text("description")
	a.IncidentType = details.text("incident_type")
	if normaliseType(a.IncidentType) == "" {
		a.IncidentType = classify(eventType, genericTypeRules)
	}
	if a.IncidentType == "" {
		a.IncidentType = eventType
	}
	return a, sev, nil
}

// parseEmailSecurity reads {eventType, id, creationTime, severity, category,
// entityType, data{sender, subject, recipients[]}}. category, entityType and
// recipients are optional.
func parseEmailSecurity(r reader) (Alert, any, error) {
	var a Alert
	if _, err := r.nonEmpty("eventType"); err != nil {
		return a, nil, err
	}
	if _, err := r.scalar("id", true); err != nil {
		return a, nil, err
	}
	a.AlertID = r.text("id")
	var err error
	if a.OccurredAt, err = r.rfc3339("creationTime"); err != nil {
		return a, nil, err
	}
	sev, err := r.scalar("severity", true)
	if err != nil {
		return a, nil, err
	}
	category, err := r.str("category", false)
	if err != nil {
		return a, nil, err
	}
	if _, err = r.str("entityType", false); err != nil {
		return a, nil, err
	}
	data, err := r.object("data", true)
	if err != nil {
		return a, nil, err
	}
	sender, err := data.str("sender", true)
	if err != nil {
		return a, nil, err
	}
	subject, err := data.str("subject", true)
	if err != nil {
		return a, nil, err
	}
	recipients, ok := data.m["recipients"].([]any)
	if has(data.m, "recipients") && !ok {
		return a, nil, data.fail("recipients", "must be an array")
	}

	// Mail suites file malicious attachments under the same event stream
	// as phishing; the category is what tells them apart.
	a.IncidentType = "phishing"
	kind := "Phishing"
	if c := strings.ToLower(category); strings.Contains(c, "malware") || strings.Contains(c, "attachment") {
		a.IncidentType = "malware"
		kind = "Malware"
	}
	if cleanLine(sender) == "" {
		sender = "unknown sender"
	}
	a.Title = kind + " email from " + cleanLine(sender)
	if s := cleanLine(subject); s != "" {
		a.Title += ": " + s
	}
	a.Description = emailDescription(category, recipients)
	return a, sev, nil
}

// emailDescription summarises what the title leaves out. Only the first few
// recipients are listed; the full list stays in the raw data.
func emailDescription(category string, recipients []any) string {
	const maxListed = 10
	var parts []string
	if c := cleanLine(category); c != "" {
		parts = append(parts, "Category: "+c+".")
	}
	var names []string
	for _, v := range recipients {
		if s, ok := v.(string); ok && cleanLine(s) != "" {
			names = append(names, cleanLine(s))
		}
	}
	if len(names) > 0 {
		line := "Recipients: " + strings.Join(names[:min(len(names), maxListed)], ", ")
		if len(names) > maxListed {
			line += " and others"
		}
		parts = append(parts, line+".")
	}
	return strings.Join(parts, "\n")
}

// parseEndpoint reads {metadata{eventType, eventCreationTime},
// event{DetectId, Severity, HostnameField, DetectName}}. Some sensors name
// the host ComputerName instead, which is accepted in its place.
func parseEndpoint(r reader) (Alert, any, error) {
	var a Alert
	meta, err := r.object("metadata", true)
	if err != nil {
		return a, nil, err
	}
	if _, err = meta.nonEmpty("eventType"); err != nil {
		return a, nil, err
	}
	ms, err := meta.number("eventCreationTime")
	if err != nil {
		return a, nil, err
	}
	a.OccurredAt = fromUnix(ms, time.Millisecond)
	event, err := r.object("event", true)
	if err != nil {
		return a, nil, err
	}
	if a.AlertID, err = event.nonEmpty("DetectId"); err != nil {
		return a, nil, err
	}
	sev, err := event.integer("Severity")
	if err != nil {
		return a, nil, err
	}
	name, err := event.str("DetectName", true)
	if err != nil {
		return a, nil, err
	}
	host, err := event.str("HostnameField", false)
	if err != nil {
		return a, nil, err
	}
	if !has(event.m, "HostnameField") {
		if host = event.text("ComputerName"); host == "" {
			return a, nil, event.fail("HostnameField", "is required")
		}
	}

	// Every detection from an endpoint sensor is filed as malware, including
	// credential theft such as "CredentialDumping": it is tooling running on
	// the host, and the malware playbooks (isolate, collect) are what fit.
	a.IncidentType = "malware"
	a.Title = cleanLine(name)
	if h := cleanLine(host); h != "" {
		a.Title += " on " + h
	}
	a.Description = event.text("DetectDescription")
	return a, sev, nil
}

// authEventCodes are Windows security event ids for logons, failed logons,
// lockouts and Kerberos/NTLM validation.
var authEventCodes = map[string]bool{"4624": true, "4625": true, "4740": true, "4771": true, "4776": true}

// parseLogSearch reads {result{host, source, sourcetype, _raw, EventCode},
// search_name, trigger_time}. The result's fields are whatever the search
// produced, so they are read leniently. There is no severity in the shape;
// a top-level severity or the result's severity or urgency is used when
// present.
func parseLogSearch(r reader) (Alert, any, error) {
	var a Alert
	name, err := r.nonEmpty("search_name")
	if err != nil {
		return a, nil, err
	}
	result, err := r.object("result", true)
	if err != nil {
		return a, nil, err
	}
	if a.OccurredAt, err = r.unixSeconds("trigger_time"); err != nil {
		return a, nil, err
	}
	// A search id identifies the alert run and _cd the event. A search set
	// to alert once per result sends one delivery per event under one sid,
	// so the two together name an alert; log-search alerts often carry
	// neither, and then there is nothing to deduplicate on.
	sid, cd := strings.TrimSpace(r.text("sid")), strings.TrimSpace(result.text("_cd"))
	switch {
	case sid != "" && cd != "":
		a.AlertID = sid + "/" + cd
	case sid != "":
		a.AlertID = sid
	default:
		a.AlertID = cd
	}

	a.IncidentType = "alert"
	if authEventCodes[strings.TrimSpace(result.text("EventCode"))] {
		a.IncidentType = "suspicious login"
	} else if t := classify(name, logSearchTypeRules); t != "" {
		a.IncidentType = t
	}
	a.Title = cleanLine(name)
	if h := cleanLine(result.text("host")); h != "" {
		a.Title += " on " + h
	}
	a.Description = result.text("_raw")

	var sev any
	for _, v := range []any{r.m["severity"], result.m["severity"], result.m["urgency"]} {
		if s, ok := v.(string); ok && strings.TrimSpace(s) != "" {
			sev = s
			break
		}
		if f, ok := v.(float64); ok {
			sev = f
			break
		}
	}
	return a, sev, nil
}

// parseSimple reads the generic endpoint's {title, severity, ...}. Only
// title and severity are checked: the shape invites arbitrary extra fields,
// so an optional field of an unexpected type is ignored rather than refused,
// and an unreadable timestamp just leaves OccurredAt zero.
func parseSimple(r reader) (Alert, any, error) {
	var a Alert
	title, err := r.str("title", true)
	if err != nil {
		return a, nil, err
	}
	if cleanLine(title) == "" {
		return a, nil, r.fail("title", "must be a non-empty string")
	}
	sev, err := r.scalar("severity", true)
	if err != nil {
		return a, nil, err
	}
	a.Title = title
	a.Description = r.text("description")
	a.Source = r.text("source")
	a.AlertID = firstText(r, "alert_id", "id")
	a.IncidentType = firstText(r, "incident_type", "type")
	if normaliseType(a.IncidentType) == "" {
		a.IncidentType = classify(title, genericTypeRules)
	}
	if v, ok := r.get("timestamp"); ok {
		a.OccurredAt, _ = anyTime(v)
	}
	return a, sev, nil
}

// firstText returns the first of keys with non-blank text.
func firstText(r reader, keys ...string) string {
	for _, k := range keys {
		if s := r.text(k); strings.TrimSpace(s) != "" {
			return s
		}
	}
	return ""
}
