package triage

import "testing"

// The words never close a critical alert with a real red flag, nor any
// alert with a near-conclusive finding that no rule resolved; an
// authorised exercise passes both.
func TestGuardCriticalKeepsRedFlagsOutOfBenign(t *testing.T) {
	high, critical := Fields{Severity: 3}, Fields{Severity: 4}
	tests := []struct {
		name     string
		f        Fields
		weight   float64
		resolved bool
		exercise bool
		want     string
	}{
		{"critical with a red flag", critical, 0.2, false, false, ClassSuspicious},
		{"critical exercise", critical, 0.65, true, true, ClassBenign},
		{"high with a modest finding", high, 0.4, false, false, ClassBenign},
		{"high with a near-conclusive finding", high, 0.65, false, false, ClassSuspicious},
		{"high with a near-conclusive finding resolved", high, 0.65, true, false, ClassBenign},
	}
	for _, tc := range tests {
		ev := &evidence{resolved: tc.resolved, exercise: tc.exercise, signals: []signal{{weight: tc.weight}}}
		if got := guardCritical(tc.f, ev, ClassBenign); got != tc.want {
			t.Errorf("%s: %s, want %s", tc.name, got, tc.want)
		}
	}
}

// The product's own critical rating is context, not a red flag: a
// critical alert whose only positive signals are its rating and its
// observables may be closed (a vulnerability scanner's Log4j probe), one
// with a finding besides may not.
func TestGuardCriticalIgnoresTheReportedRating(t *testing.T) {
	critical := Fields{Severity: 4}
	ev := &evidence{}
	ev.addContext(0.30, "reported severity is critical")
	ev.addContext(0.10, "6 observables give material to investigate")
	ev.addGrouped("", -0.40, "the activity comes from the organisation's own vulnerability scanner")
	if got := guardCritical(critical, ev, ClassBenign); got != ClassBenign {
		t.Errorf("rating alone kept it open: %s", got)
	}
	ev.addGrouped("", 0.25, "the product classes the destination as command and control")
	if got := guardCritical(critical, ev, ClassBenign); got != ClassSuspicious {
		t.Errorf("a finding besides the rating did not keep it open: %s", got)
	}
}
