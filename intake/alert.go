// Package intake turns inbound webhook bodies into normalised alerts and
// checks their signatures.
//
// Four sender formats are recognised (generic, email security suite,
// endpoint detection and log-search alert) plus the simple {title, severity}
// shape of the generic endpoint. Everything in a body is attacker-controlled
// until the signature has been checked, and sender-controlled afterwards, so
// parsing is strict about shape, bounded in depth and length, and never
// panics on unexpected input.
package intake

import (
	"strings"
	"time"
)

// Format names reported in Alert.Format.
const (
	FormatGeneric       = "generic"
	FormatEmailSecurity = "email_security"
	FormatEndpoint      = "endpoint"
	FormatLogSearch     = "log_search"
	FormatSimple        = "simple"
)

// Alert is an inbound alert normalised into what an incident needs.
type Alert struct {
	Format       string         // one of the Format constants
	AlertID      string         // upstream alert id used for deduplication; "" when the payload has none
	Title        string         // short human title, never empty, at most 200 runes
	IncidentType string         // "phishing", "malware", "suspicious login", or another lower-case type
	SeverityRaw  string         // the upstream severity as text, e.g. "High", "3"
	Severity     string         // low, medium, high or critical after mapping
	Source       string         // sender-reported source when the payload names one, else the registered source name
	OccurredAt   time.Time      // event time from the payload in UTC, zero when absent or implausible
	Description  string         // at most 2000 runes, may be ""
	RawData      map[string]any // the whole payload as decoded JSON
	// Resolved marks a notification that the upstream alert has ended;
	// it updates the alert's incident rather than creating one.
	Resolved bool
	// EndNotified: the sender notifies the alert's end (Resolved), so
	// while it fires, its repeats belong to one incident.
	EndNotified bool
	// EndedAt is when a resolved alert ended, from the payload; zero when
	// it names no end time.
	EndedAt time.Time
}

// FormatError explains why a payload was not accepted: not JSON, not an
// object, or matching no known format. Expected lists what would have been
// accepted, so the sender can be told how to fix its request.
type FormatError struct {
	Message  string
	Expected []string
}

// Error returns the message alone; Expected is meant for structured error
// details rather than log lines.
func (e *FormatError) Error() string { return e.Message }

// format describes one sender format: how to recognise a body that claims to
// be in it and how to read it.
type format struct {
	name     string
	label    string // prefix for error messages, e.g. "generic payload"
	expected string // shape summary for FormatError.Expected
	claims   func(m map[string]any) bool
	parse    func(r reader) (Alert, any, error)
}

// formats is ordered as in the specification; the order only matters for
// the order of messages when a body claims several formats and fits none.
var formats = []format{
	{
		name:     FormatGeneric,
		label:    "generic payload",
		expected: "generic: {event_type, timestamp, source, data{alert_id, severity, details}}",
		claims:   func(m map[string]any) bool { return has(m, "event_type") },
		parse:    parseGeneric,
	},
	{
		name:     FormatEmailSecurity,
		label:    "email security payload",
		expected: "email_security: {eventType, id, creationTime, severity, category, entityType, data{sender, subject, recipients[]}}",
		claims:   func(m map[string]any) bool { return has(m, "eventType") },
		parse:    parseEmailSecurity,
	},
	{
		name:     FormatEndpoint,
		label:    "endpoint detection payload",
		expected: "endpoint: {metadata{eventType, eventCreationTime (epoch ms)}, event{DetectId, Severity (integer), HostnameField, DetectName}}",
		claims:   func(m map[string]any) bool { return has(m, "metadata") && has(m, "event") },
		parse:    parseEndpoint,
	},
	{
		name:     FormatLogSearch,
		label:    "log-search payload",
		expected: "log_search: {result{host, source, sourcetype, _raw, EventCode}, search_name, trigger_time (epoch s)}",
		claims:   func(m map[string]any) bool { return has(m, "search_name") },
		parse:    parseLogSearch,
	},
}

const simpleExpected = "simple: {title, severity, incident_type?, description?, source?, alert_id?, timestamp?}"

// expectedFormats returns the shape summaries of every format, with the
// simple shape first when the caller accepts it.
func expectedFormats(withSimple bool) []string {
	var out []string
	if withSimple {
		out = append(out, simpleExpected)
	}
	for _, f := range formats {
		out = append(out, f.expected)
	}
	return out
}

// Parse detects which of the four sender formats body is in and normalises
// it. mapping is the source's severity_mapping: its keys are compared
// case-insensitively with the upstream severity text and its values, which
// must be low, medium, high or critical, take precedence over the defaults.
// Errors are always *FormatError.
func Parse(body []byte, sourceName string, mapping map[string]string) (Alert, error) {
	expected := expectedFormats(false)
	m, err := decodeObject(body, expected)
	if err != nil {
		return Alert{}, err
	}
	return parseObject(m, sourceName, mapping, expected)
}

// ParseSimple accepts the generic endpoint's simple shape: title and
// severity are required; incident_type (or type), description, source,
// alert_id (or id) and timestamp are optional and any other fields are kept
// in RawData only. A body without a title is handed to the four-format
// detection of Parse, so senders may post any supported format here.
func ParseSimple(body []byte, sourceName string, mapping map[string]string) (Alert, error) {
	expected := expectedFormats(true)
	m, err := decodeObject(body, expected)
	if err != nil {
		return Alert{}, err
	}
	if !has(m, "title") {
		return parseObject(m, sourceName, mapping, expected)
	}
	a, sev, err := parseSimple(reader{label: "simple alert", m: m, expect: []string{simpleExpected}})
	if err != nil {
		return Alert{}, err
	}
	a.Format = FormatSimple
	return finish(a, sev, m, sourceName, mapping), nil
}

// parseObject finds the formats m claims to be in and parses it as the one
// that fits. Detection keys on a marker field per format, and a body that
// fits two formats at once is refused rather than guessed at, because a
// wrong guess would silently produce a misleading incident. A body that
// merely carries another format's marker field, but fails that format's
// checks, is taken as the one format it does fit.
func parseObject(m map[string]any, sourceName string, mapping map[string]string, expected []string) (Alert, error) {
	var (
		fits     []string
		problems []string
		alert    Alert
		sev      any
	)
	for _, f := range formats {
		if !f.claims(m) {
			continue
		}
		a, s, err := f.parse(reader{label: f.label, m: m, expect: []string{f.expected}})
		if err != nil {
			problems = append(problems, err.Error())
			continue
		}
		a.Format = f.name
		alert, sev = a, s
		fits = append(fits, f.name)
	}
	switch {
	case len(fits) == 1:
		return finish(alert, sev, m, sourceName, mapping), nil
	case len(fits) > 1:
		return Alert{}, &FormatError{
			Message:  "payload is ambiguous: it fits formats " + strings.Join(fits, " and "),
			Expected: expected,
		}
	case len(problems) > 0:
		// The claimed format's own complaint names the missing or mistyped
		// field, which is far more useful than "matches no known format".
		return Alert{}, &FormatError{Message: strings.Join(problems, "; "), Expected: claimedExpected(m)}
	}
	return Alert{}, &FormatError{Message: "payload matches no known format", Expected: expected}
}

// claimedExpected lists the shapes of the formats m claims, so that an error
// about a missing field shows the sender only the shape it was aiming for.
func claimedExpected(m map[string]any) []string {
	var out []string
	for _, f := range formats {
		if f.claims(m) {
			out = append(out, f.expected)
		}
	}
	return out
}

// finish applies the rules shared by every format: text is cleaned and
// capped, severity mapped and the source defaulted, so that the invariants
// documented on Alert hold whatever the format parser produced.
func finish(a Alert, sev any, raw map[string]any, sourceName string, mapping map[string]string) Alert {
	a.Title = cleanTitle(a.Title)
	if a.Title == "" {
		a.Title = fallbackTitle(a.Format)
	}
	a.AlertID = cleanAlertID(a.AlertID)
	a.IncidentType = normaliseType(a.IncidentType)
	if a.IncidentType == "" {
		a.IncidentType = "alert"
	}
	a.SeverityRaw, a.Severity = mapSeverity(sev, mapping)
	a.Source = truncateRunes(cleanLine(a.Source), maxSourceRunes)
	if a.Source == "" {
		a.Source = strings.TrimSpace(sourceName)
	}
	if a.Source == "" {
		// An incident needs a source; the format name is better than none.
		a.Source = a.Format
	}
	a.Description = cleanDescription(a.Description)
	a.OccurredAt = plausible(a.OccurredAt)
	a.RawData = raw
	return a
}

// fallbackTitle names an alert whose payload offered no usable title text.
func fallbackTitle(f string) string {
	switch f {
	case FormatEmailSecurity:
		return "Email security alert"
	case FormatEndpoint:
		return "Endpoint detection"
	case FormatLogSearch:
		return "Log search alert"
	case FormatGeneric:
		return "Generic alert"
	}
	return "Alert"
}
