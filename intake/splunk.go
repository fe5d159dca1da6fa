package intake

import "strings"

const splunkExpected = "splunk: {sid, search_name, result{...first result row}, results_link, owner, app}"

// splunkFormat is Splunk's stock webhook alert action, which posts the
// triggering search's id, name, owner and app, a link to its results and
// the first result row. The action cannot set headers, so such sources
// authenticate with a token in the URL.
var splunkFormat = format{name: SourceSplunk, label: "splunk payload", expected: splunkExpected, parse: parseSplunk}

// parseSplunk reads {sid, search_name, result, results_link, owner, app}.
// Only sid is required: Splunk's own example sends search_name as null for
// an ad hoc search. The result row holds whatever fields the search
// produced, so it is read leniently, as for log-search alerts.
func parseSplunk(r reader) (Alert, any, error) {
	var a Alert
	sid, err := r.nonEmpty("sid")
	if err != nil {
		return a, nil, err
	}
	name, err := r.str("search_name", false)
	if err != nil {
		return a, nil, err
	}
	result, err := r.object("result", false)
	if err != nil {
		return a, nil, err
	}
	for _, key := range []string{"results_link", "owner", "app"} {
		if _, err := r.str(key, false); err != nil {
			return a, nil, err
		}
	}
	// One sid names one run of the search; a search that alerts once per
	// result sends one delivery per row under it, told apart by _cd.
	a.AlertID = strings.TrimSpace(sid)
	if cd := strings.TrimSpace(result.text("_cd")); cd != "" {
		a.AlertID += "/" + cd
	}
	if v, ok := result.get("_time"); ok {
		a.OccurredAt, _ = anyTime(v)
	}
	a.Title = cleanLine(name)
	if a.Title == "" {
		a.Title = "Splunk alert " + cleanLine(sid)
	}
	if h := cleanLine(result.text("host")); h != "" {
		a.Title += " on " + h
	}
	a.IncidentType = "alert"
	if authEventCodes[strings.TrimSpace(result.text("EventCode"))] {
		a.IncidentType = "suspicious login"
	} else if t := classify(name, logSearchTypeRules); t != "" {
		a.IncidentType = t
	}
	owner := joinNonEmpty(", ", prefixed("Owner: ", r.text("owner")), prefixed("app: ", r.text("app")))
	a.Description = joinNonEmpty("\n", result.text("_raw"), linkLine("Results", r.text("results_link")), owner)
	var sev any
	for _, key := range []string{"severity", "urgency"} {
		if s := result.text(key); strings.TrimSpace(s) != "" {
			sev = s
			break
		}
	}
	return a, sev, nil
}

// prefixed labels a value, or is empty without one.
func prefixed(label, value string) string {
	if strings.TrimSpace(value) == "" {
		return ""
	}
	return label + cleanLine(value)
}
