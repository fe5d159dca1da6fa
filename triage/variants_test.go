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
