package triage

import (
	"maps"
	"strings"
	"testing"
)

// withFields returns a copy of base with extra's keys set over it: one
// alert and its variants in a table test.
func withFields(base, extra map[string]any) map[string]any {
	raw := maps.Clone(base)
	maps.Copy(raw, extra)
	return raw
}

// logSearch is a log-search alert (a Splunk alert action's payload) named
// name, whose matching event is result.
func logSearch(name string, result map[string]any) map[string]any {
	return map[string]any{"search_name": name, "trigger_time": 1748875200, "result": result}
}

// withResult is search with fields of its matching event replaced.
func withResult(search, fields map[string]any) map[string]any {
	return withFields(search, map[string]any{"result": withFields(search["result"].(map[string]any), fields)})
}

// closeCase is a variant of an alert and whether triage may close it.
type closeCase struct {
	name   string
	raw    map[string]any
	benign bool
}

// fireCase is one payload and whether a rule is expected to fire on it.
type fireCase struct {
	name  string
	raw   map[string]any
	fires bool
}

// checkFires analyzes each case as an incident of incidentType at
// severity and checks that rule fires on exactly the cases marked so.
func checkFires(t *testing.T, rule, incidentType, severity string, cases []fireCase) {
	t.Helper()
	for _, tc := range cases {
		a := analyze(t, Incident{IncidentType: incidentType, Severity: severity, RawData: tc.raw})
		if got := strings.Contains(a.Verdict.Reasoning, "Rule "+rule+" ") || strings.Contains(a.Verdict.Reasoning, "Rule "+rule+":"); got != tc.fires {
			t.Errorf("%s: %s fired=%v, want %v (%s)", tc.name, rule, got, tc.fires, a.Verdict.Reasoning)
		}
	}
}

// checkClosed analyzes each case as an incident of incidentType at high
// severity and checks that exactly the benign ones are closed.
func checkClosed(t *testing.T, incidentType string, cases []closeCase) {
	t.Helper()
	for _, tc := range cases {
		a := analyze(t, Incident{IncidentType: incidentType, Severity: "high", RawData: tc.raw})
		if got := a.Verdict.Classification == ClassBenign; got != tc.benign {
			t.Errorf("%s: %s, want benign=%v (%s)", tc.name, a.Verdict.Classification, tc.benign, a.Verdict.Reasoning)
		}
	}
}
