package intake

import (
	"math"
	"sort"
	"strings"
)

// Normalised severities.
const (
	sevLow      = "low"
	sevMedium   = "medium"
	sevHigh     = "high"
	sevCritical = "critical"
)

// defaultSeverityNames maps the severity words vendors commonly use. An
// unknown word is medium rather than an error: dropping an alert because its
// severity is spelt unexpectedly would hide exactly the alerts nobody tested.
var defaultSeverityNames = map[string]string{
	"informational": sevLow, "info": sevLow, "low": sevLow, "minor": sevLow,
	"medium": sevMedium, "moderate": sevMedium, "warning": sevMedium, "warn": sevMedium,
	"high": sevHigh, "error": sevHigh, "major": sevHigh, "severe": sevHigh,
	"critical": sevCritical, "urgent": sevCritical, "emergency": sevCritical, "fatal": sevCritical, "crit": sevCritical,
}

// integerSeverities is the common 0-5 vendor scale.
var integerSeverities = [...]string{sevLow, sevLow, sevMedium, sevHigh, sevCritical, sevCritical}

// mapSeverity returns the upstream severity as text and its normalised
// level. raw is a string, a float64 or nil. The source's mapping is
// consulted first, then the default names, then the numeric scales.
func mapSeverity(raw any, mapping map[string]string) (text, level string) {
	switch t := raw.(type) {
	case string:
		text = truncateRunes(cleanLine(t), maxSeverityRawRunes)
	case float64:
		text = formatNumber(t)
	}
	if text == "" {
		return "", sevMedium
	}
	if l, ok := lookupMapping(mapping, text); ok {
		return text, l
	}
	if l, ok := defaultSeverityNames[strings.ToLower(text)]; ok {
		return text, l
	}
	if f, ok := raw.(float64); ok {
		return text, numericSeverity(f)
	}
	if f, ok := decimal(text); ok {
		return text, numericSeverity(f)
	}
	return text, sevMedium
}

// lookupMapping finds text among the mapping's keys, ignoring case and
// surrounding space. An exact key wins; otherwise keys are tried in sorted
// order so that a mapping holding both "High" and "HIGH" behaves the same on
// every call. Entries whose value is not a valid level are skipped, because
// falling back to the defaults beats failing an alert over a bad setting.
func lookupMapping(mapping map[string]string, text string) (string, bool) {
	if len(mapping) == 0 {
		return "", false
	}
	if l, ok := validLevel(mapping[text]); ok {
		return l, true
	}
	keys := make([]string, 0, len(mapping))
	for k := range mapping {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if strings.EqualFold(strings.TrimSpace(k), text) {
			if l, ok := validLevel(mapping[k]); ok {
				return l, true
			}
		}
	}
	return "", false
}

// validLevel normalises a configured level, reporting whether it is one of
// the four.
func validLevel(s string) (string, bool) {
	switch l := strings.ToLower(strings.TrimSpace(s)); l {
	case sevLow, sevMedium, sevHigh, sevCritical:
		return l, true
	}
	return "", false
}

// numericSeverity maps a number on either of the two scales vendors use: a
// 0-5 level, or a 0-100 risk score from 6 upwards. Numbers on neither scale
// are medium, as for unknown names.
func numericSeverity(f float64) string {
	switch {
	case f == math.Trunc(f) && f >= 0 && f <= 5:
		return integerSeverities[int(f)]
	case f >= 6 && f < 30:
		return sevLow
	case f >= 30 && f < 60:
		return sevMedium
	case f >= 60 && f < 80:
		return sevHigh
	case f >= 80 && f <= 100:
		return sevCritical
	}
	return sevMedium
}
