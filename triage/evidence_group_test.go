package triage

import (
	"strings"
	"testing"
)

// Two rules reading one fact count once: the stronger weight stands, the
// other is listed but adds nothing, and a benign signal of the same group
// is weighed on its own side.
func TestGroupedSignalsCountOnce(t *testing.T) {
	ev := &evidence{label: "Test"}
	ev.addGrouped("rented_network", 0.20, "the address belongs to a server host")
	ev.addGrouped("rented_network", 0.35, "an application signed in from a server host")
	ev.addGrouped("rented_network", -0.10, "the host is on the allow list")
	ev.add(0.10, "unrelated")
	if got := ev.score(); got != 0.35 {
		t.Fatalf("score %.2f, want 0.35 (0.35 - 0.10 + 0.10)", got)
	}
	text := ev.reasoning(ClassSuspicious)
	if !strings.Contains(text, "(+0.20, counted once with the stronger rented_network evidence)") {
		t.Errorf("the weaker member is not marked as counted once: %s", text)
	}
}
