package triage

import (
	"strings"
	"testing"
)

// "USB" is a word of its own: GuardDuty's "AnomalousBehavior" spells it
// inside a longer one.
func TestRemovableMediaIsReadAsAWord(t *testing.T) {
	const rule = "dlp.removable_media"
	for _, tc := range []struct {
		title string
		fires bool
	}{
		{"Discovery:IAMUser/AnomalousBehavior", false},
		{"Bulk copy of project files to a USB storage device", true},
	} {
		a := analyze(t, Incident{IncidentType: "other", Severity: "medium", RawData: map[string]any{"title": tc.title, "host": "LT-0441"}})
		if got := strings.Contains(a.Verdict.Reasoning, rule); got != tc.fires {
			t.Errorf("%q: %s fired=%v, want %v (%s)", tc.title, rule, got, tc.fires, a.Verdict.Reasoning)
		}
	}
}
