package triage

import "testing"

// "USB" is a word of its own: GuardDuty's "AnomalousBehavior" spells it
// inside a longer one.
func TestRemovableMediaIsReadAsAWord(t *testing.T) {
	checkFires(t, "dlp.removable_media", "other", "medium", []fireCase{
		{"GuardDuty finding type", map[string]any{"title": "Discovery:IAMUser/AnomalousBehavior", "host": "LT-0441"}, false},
		{"a USB copy", map[string]any{"title": "Bulk copy of project files to a USB storage device", "host": "LT-0441"}, true},
	})
}
