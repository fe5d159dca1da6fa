package triage

import (
	"strings"
	"testing"
)

// TestWordingThatLeansBenignDoesNotCloseAnUnreadHighAlert holds that an
// alert the rules found nothing in, rated high by its product, stays open
// when its wording only leans benign, and that a medium one may be closed.
func TestWordingThatLeansBenignDoesNotCloseAnUnreadHighAlert(t *testing.T) {
	m := toyModel(t)
	words := append(append([]string{}, benignWords[:11]...), mixedWords[:9]...)
	for _, tc := range []struct {
		severity string
		benign   bool
	}{{"high", false}, {"medium", true}} {
		inc := Incident{IncidentType: "suspicious_login", Severity: tc.severity, RawData: map[string]any{"description": strings.Join(words, " ")}}
		r, ok := readWords(m, inc, -1)
		if !ok || r.Leans != ClassBenign || r.Clearly {
			t.Fatalf("the wording should lean benign, not clearly: %+v", r)
		}
		a := analyzeWith(t, m, inc)
		if got := a.Verdict.Classification == ClassBenign; got != tc.benign {
			t.Errorf("%s: %s, want benign %v: %s", tc.severity, a.Verdict.Classification, tc.benign, a.Verdict.Reasoning)
		}
	}
}
